/**
 * Which researcher answers: the configured model (deepSearch.model.*, its key read from the
 * environment variable the configuration names) or, with no endpoint set, the offline researcher.
 */
import { ResearchFailure, type Brain } from './brain.js';
import { modelResearcher } from './model-brain.js';
import { offlineResearcher } from './offline.js';
import type { DeepSearchSettings } from './service.js';

export interface ModelTiming {
  readonly timeoutMs: number;
  readonly retries: number;
  readonly backoffMs: number;
  readonly stream: boolean;
}

export const DEFAULT_TIMING: ModelTiming = { timeoutMs: 120_000, retries: 3, backoffMs: 1000, stream: true };

export function chooseBrain(settings: DeepSearchSettings, secret: (name: string) => string | null, timing: ModelTiming = DEFAULT_TIMING): Brain {
  const { endpoint, name, apiKeyEnvVar } = settings.model;
  if (endpoint === '') return offlineResearcher;
  const apiKey = apiKeyEnvVar === '' ? null : secret(apiKeyEnvVar);
  if (apiKeyEnvVar !== '' && apiKey === null) {
    const missing = new ResearchFailure({ title: 'Model key missing', kind: 'ModelUnavailable', message: `The environment variable ${apiKeyEnvVar} (deepSearch.model.apiKeyEnvVar) is not set in the server's environment.` });
    return { name: 'model without key', research: () => Promise.reject(missing) };
  }
  return modelResearcher({ url: endpoint, model: name, apiKey, apiKeyEnvVar, ...timing });
}
