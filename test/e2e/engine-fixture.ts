/**
 * A real Quarry data directory: registry, mirror and LMDB index built from git repositories the
 * test made, with the worker pool (end-to-end tests) or the in-thread pool (tests of services).
 */
import { loadConfig } from '../../src/config.js';
import { createServices, type Services, type ServicesOptions } from '../../src/services.js';
import { addRepository } from '../../src/repos/registry.js';
import { getRepo } from '../../src/store/repos.js';
import type { SearchResponse, FileMatch } from '../../src/model/result.js';
import { makeTempDir } from '../git/fixtures.js';

export interface EngineFixture {
  readonly dataDir: string;
  readonly engine: Services;
  indexRepo(name: string): ReturnType<Services['index']>;
}

export interface EngineFixtureOptions {
  readonly maxFileSize?: number;
  readonly matcher?: string;
  readonly threads?: number;
  /**
   * `workers` unless asked: a test of a service's logic asks for `in-thread`, which starts no
   * threads; what only the worker pool shows (preemption, crashes, the compile guard) keeps it.
   */
  readonly pool?: ServicesOptions['pool'];
}

export async function createEngineFixture(options: EngineFixtureOptions = {}): Promise<EngineFixture> {
  const dataDir = makeTempDir('quarry-data');
  const config = loadConfig({ dataDir, threads: options.threads ?? 2, ...(options.maxFileSize ? { maxFileSize: options.maxFileSize } : {}), ...(options.matcher ? { matcher: options.matcher } : {}) });
  const engine = createServices(config, { pool: options.pool ?? 'workers' });
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
