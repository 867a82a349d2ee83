/**
 * The fetched real-code projects indexed by the real engine into a scratch data directory, and a
 * tool context on them as a site admin: what the real-code evaluators (navigation, nls_search) call
 * the tools through.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ANONYMOUS } from '../../src/auth/principal.js';
import type { ToolContext } from '../../src/api/mcp/tool.js';
import { loadConfig } from '../../src/config.js';
import { addRepository } from '../../src/repos/registry.js';
import { mcpServices } from '../../src/server/mcp.js';
import { createServices, type Services } from '../../src/services.js';
import { getRepo } from '../../src/store/repos.js';

export const repoOf = (project: string): string => `github.com/nav-real/${project}`;
export const projectOf = (repo: string): string => repo.slice(repo.lastIndexOf('/') + 1);

export interface IndexedCorpus {
  readonly services: Services;
  readonly ctx: ToolContext;
}

export async function indexCorpus(corpus: string, projects: readonly string[], log: (line: string) => void): Promise<IndexedCorpus> {
  const dataDir = join(corpus, 'quarry-data');
  rmSync(dataDir, { recursive: true, force: true });
  const services = createServices(loadConfig({ dataDir }));
  for (const project of projects) {
    const started = performance.now();
    await addRepository({ dataDir, store: services.store }, repoOf(project), join(corpus, project));
    await services.index(getRepo(services.store, repoOf(project))!);
    log(`indexed ${project} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const ctx: ToolContext = {
    principal: { ...ANONYMOUS, siteAdmin: true, canRead: () => true },
    signal: new AbortController().signal,
    origin: 'http://127.0.0.1',
    maxAnswerTokens: 8000,
    services: mcpServices(services),
  };
  return { services, ctx };
}
