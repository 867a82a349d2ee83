/**
 * A real Quarry data directory for end-to-end tests: registry, mirror, LMDB index and worker pool,
 * built from a git repository the test made.
 */
import { loadConfig } from '../../src/config.js';
import { createServices, type Services } from '../../src/services.js';
import { addRepository } from '../../src/repos/registry.js';
import { getRepo } from '../../src/store/repos.js';
import type { SearchResponse, FileMatch } from '../../src/model/result.js';
import { makeTempDir } from '../git/fixtures.js';

export interface EngineFixture {
  readonly dataDir: string;
  readonly engine: Services;
  indexRepo(name: string): ReturnType<Services['index']>;
}

export async function createEngineFixture(options: { maxFileSize?: number; matcher?: string; threads?: number } = {}): Promise<EngineFixture> {
  const dataDir = makeTempDir('quarry-data');
  const engine = createServices(loadConfig({ dataDir, threads: options.threads ?? 2, ...(options.maxFileSize ? { maxFileSize: options.maxFileSize } : {}), ...(options.matcher ? { matcher: options.matcher } : {}) }));
  return {
    dataDir,
    engine,
    indexRepo: (name) => engine.index(getRepo(engine.store, name)!),
  };
}

export async function addAndIndex(fixture: EngineFixture, name: string, source: string): Promise<void> {
  await addRepository({ dataDir: fixture.dataDir, store: fixture.engine.store }, name, source);
  await fixture.indexRepo(name);
}

/** "path:line" (1-based) for every matched line, sorted. */
export function matchedLines(response: SearchResponse): string[] {
  const out: string[] = [];
  for (const m of response.matches) {
    if (m.type === 'repo' || m.type === 'commit') continue;
    for (const l of (m as FileMatch).lineMatches) out.push(`${m.path}:${l.lineNumber + 1}`);
  }
  return out.sort();
}
