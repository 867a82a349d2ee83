/**
 * A real `quarry serve` for the deep search REST API and page tests: the restricted instance (an
 * open repository with a Go router, a secret one only the admin reads), bob as a second plain
 * user, the REST API over HTTP, and a scripted OpenAI-compatible model on loopback that a test
 * switches on (site configuration) when it needs an answer it chose or a question that never ends.
 */
import assert from 'node:assert/strict';
import { scriptedModel, type ScriptedModel, type Step } from '../../deepsearch/scripted-model.js';
import { startRestrictedInstance, type RestrictedInstance } from '../restricted-instance.js';

export const ROUTER = 'package web\n\n// Router dispatches each request to its handler by path.\nfunc Router(path string) string {\n\treturn dispatch(path)\n}\n\nfunc dispatch(path string) string {\n\treturn "handled " + path\n}\n';
export const QUESTION = 'where is the Router defined and how does it dispatch a request?';
export const API = '/.api/deepsearch/v1';

export interface ApiAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body as JSON, or undefined when it is none. */
  readonly json: any;
}

export interface DeepSearchInstance extends RestrictedInstance {
  readonly url: string;
  readonly bob: string;
  api(token: string | null, method: string, path: string, body?: unknown): Promise<ApiAnswer>;
  /** Polls the conversation until no question runs; its JSON. */
  completed(token: string, id: number): Promise<any>;
  /** Sends the next questions to a scripted model answering `steps` (then `fallback`); `null` goes back to the offline researcher. */
  useModel(steps: Step[] | null, fallback?: Step): Promise<ScriptedModel | null>;
}

export async function startDeepSearchInstance(): Promise<DeepSearchInstance> {
  const instance = await startRestrictedInstance({ 'web/router.go': ROUTER, 'README.md': '# open\n' });
  assert.equal(instance.quarry(['users', 'create', 'bob', '--email', 'bob@example.com']).status, 0);
  const bob = instance.quarry(['tokens', 'create', 'bob']).stdout.trim();
  const url = instance.server.url;
  let model: ScriptedModel | null = null;
  const api = async (token: string | null, method: string, path: string, body?: unknown): Promise<ApiAnswer> => {
    const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'quarry-test 1.0.0' };
    if (token !== null) headers['Authorization'] = `token ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
  return {
    ...instance, url, bob, api,
    async completed(token, id) {
      const deadline = Date.now() + 90_000;
      for (;;) {
        const got = await api(token, 'GET', `${API}/${id}`);
        assert.equal(got.status, 200, got.text);
        if (got.json.questions.every((q: { status: string }) => q.status === 'completed')) return got.json;
        assert.ok(Date.now() < deadline, `conversation ${id} still running: ${got.text.slice(0, 500)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async useModel(steps, fallback) {
      await model?.close();
      model = null;
      if (steps === null) {
        instance.setConfig('{}');
        return null;
      }
      model = await scriptedModel(steps);
      model.fallback = fallback ?? null;
      instance.setConfig(JSON.stringify({ 'deepSearch.model.endpoint': model.url, 'deepSearch.model.name': 'scripted' }));
      return model;
    },
    async close() {
      await model?.close();
      await instance.close();
    },
  };
}
