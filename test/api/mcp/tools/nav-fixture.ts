/**
 * MCP services for the navigation tools' tests, two ways over the same repositories (the labelled
 * fixtures, a `feature` branch of github.com/acme/app that is not indexed, an unreadable repository):
 * held in memory with symbol tables from the real extraction, or indexed for real (git, LMDB) on the
 * in-thread pool.
 */
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { mcpServices } from '../../../../src/server/mcp.js';
import { addAndIndex, createEngineFixture } from '../../../e2e/engine-fixture.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../../../git/fixtures.js';
import type { RepoBrowser, RepoInfo } from '../../../../src/model/repos.js';
import type { SearchService } from '../../../../src/search/contracts.js';
import { FAKE_COMMIT } from '../../../symbols/fake-symbol-index.js';
import { createParsedSymbolIndex } from '../../../symbols/navigation/parsed-index.js';
import { loadLabelledSet, type FixtureFile } from '../../../fixtures/navigation-labels.js';

export const APP = 'github.com/acme/app';
export const WEB = 'github.com/acme/web';
export const SECRET = 'github.com/acme/secret';
export const FEATURE_COMMIT = 'f'.repeat(40);
export const canRead = (repo: string): boolean => repo !== SECRET;

/** On `feature`, main.mts gains two lines at the top: every line moves down by two. */
export const FEATURE_MAIN_PREFIX = '// feature branch\n// shifts every line\n';

const SECRET_FILE: FixtureFile = { repo: SECRET, dir: 'secret', path: 'x.mts', content: "import { helper } from '@acme/app/src/util';\nhelper(1);\n" };

function fixtureFiles(): FixtureFile[] {
  return [...loadLabelledSet().files, SECRET_FILE];
}

export interface NavigationBackend {
  readonly services: McpServices;
  close(): Promise<void>;
}

/** Each backend the tool tests run against: `open` builds it, the caller closes it. */
export const BACKENDS: readonly { readonly name: string; open(): Promise<NavigationBackend> }[] = [
  { name: 'in memory', open: async () => ({ services: navigationServices(), close: async () => {} }) },
  { name: 'indexed', open: indexedServices },
];

async function indexedServices(): Promise<NavigationBackend> {
  const engine = await createEngineFixture({ pool: 'in-thread' });
  const sources = makeTempDir('quarry-nav');
  const byRepo = new Map<string, Record<string, string>>();
  for (const f of fixtureFiles()) byRepo.set(f.repo, { ...byRepo.get(f.repo), [f.path]: f.content });
  for (const [repo, files] of byRepo) {
    const dir = initRepo(`${sources}/${repo.slice(repo.lastIndexOf('/') + 1)}`);
    writeFiles(dir, files);
    commitAll(dir, 'initial');
    if (repo === APP) {
      git(dir, 'checkout', '--quiet', '-b', 'feature');
      writeFiles(dir, { 'src/main.mts': FEATURE_MAIN_PREFIX + files['src/main.mts']! });
      commitAll(dir, 'feature');
      git(dir, 'checkout', '--quiet', 'main');
    }
    await addAndIndex(engine, repo, dir);
  }
  const services = mcpServices(engine.engine);
  return {
    services,
    async close() {
      await engine.engine.close();
      removeDir(engine.dataDir);
      removeDir(sources);
    },
  };
}

export function navigationServices(): McpServices {
  const files = fixtureFiles();
  const blobs = new Map(files.map((f) => [`${f.repo}@${FAKE_COMMIT}/${f.path}`, f.content]));
  const main = files.find((f) => f.repo === APP && f.path === 'src/main.mts')!;
  for (const f of files.filter((x) => x.repo === APP)) blobs.set(`${APP}@${FEATURE_COMMIT}/${f.path}`, f === main ? FEATURE_MAIN_PREFIX + f.content : f.content);
  const repoNames = [...new Set(files.map((f) => f.repo))].sort();
  const info = (name: string, id: number): RepoInfo => ({ id, name, description: '', fork: false, archived: false, private: false, defaultBranch: 'main' });
  const repos: RepoBrowser = {
    list: (read) => repoNames.filter(read).map(info),
    get: (name, read) => (repoNames.includes(name) && read(name) ? info(name, repoNames.indexOf(name)) : null),
    refs: async () => [],
    resolveRevision: async (repo, rev) => (rev === 'main' || rev === FAKE_COMMIT ? FAKE_COMMIT : repo === APP && rev === 'feature' ? FEATURE_COMMIT : null),
    readCommit: async () => { throw new Error('not used'); },
    readBlob: async (repo, commit, path) => {
      const text = blobs.get(`${repo}@${commit}/${path}`);
      return text === undefined ? null : Buffer.from(text);
    },
    listTree: async () => null,
  };
  return {
    search: {} as SearchService,
    repos,
    defaultCommit: async () => FAKE_COMMIT,
    indexedFileCount: () => files.length,
    symbols: createParsedSymbolIndex(files),
  };
}

/** The fixture file's lines numbered `N: text` from `from` to `to` (1-based, inclusive). */
export function numbered(repo: string, path: string, from: number, to: number): string {
  const file = loadLabelledSet().files.find((f) => f.repo === repo && f.path === path)!;
  return file.content.split('\n').slice(from - 1, to).map((l, i) => `${from + i}: ${l}\n`).join('');
}
