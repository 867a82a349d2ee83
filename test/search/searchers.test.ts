/**
 * The searcher list: a searcher added to it is asked in its place in the order, over the
 * repositories the service selected, and its matches are listed in its section; the service
 * itself is not edited for it. Over an index held in memory and the in-thread pool.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { RepoMatch, SearchResponse } from '../../src/model/result.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';
import type { SearchService } from '../../src/search/contracts.js';
import { NOTHING_FOUND, type Searcher } from '../../src/search/searcher.js';
import { createSearchService, defaultSearchers, type SearchDeps } from '../../src/search/service.js';
import { createMemoryIndex } from './memory-index.js';

/** A kind Quarry does not have: `type:repo` listing every selected repository, whatever the pattern. */
const everySelectedRepo: Searcher = {
  section: 'repositories',
  accepts: (basic) => basic.filters.types.includes('repo'),
  start: () => ({
    async run(_basic, targets) {
      const matches: RepoMatch[] = targets.map(({ manifest }) => ({
        type: 'repo', repository: manifest.repo, repositoryID: manifest.repoId, branches: [manifest.branch], fork: manifest.fork, archived: manifest.archived,
      }));
      return { ...NOTHING_FOUND, matches, matchCount: matches.length };
    },
  }),
};

const pool = createInThreadEnginePool();
const index = createMemoryIndex([
  { name: 'github.com/acme/alpha', files: { 'README.md': 'say hello\n' }, commits: ['initial'] },
  { name: 'github.com/acme/beta', files: { 'lib.py': 'def hello(): pass\n' }, commits: ['initial'] },
  { name: 'github.com/acme/forked', files: { 'x.go': 'package x // hello\n' }, fork: true, commits: ['initial'] },
]);
const deps: SearchDeps = {
  catalog: index.catalog,
  runner: pool,
  revisions: index.revisions,
  matcher: 'auto',
  commits: index.commits,
  settings: () => ({ maxResults: 30, maxCount: 500_000, defaultTimeoutMs: 10_000, maxTimeoutMs: 60_000 }),
};

/** "repo:name" or "name:path" per match, in response order. */
function listed(response: SearchResponse): string[] {
  return response.matches.map((m) => (m.type === 'repo' ? `repo:${m.repository}` : m.type === 'commit' ? `commit:${m.message.trim()}` : `${m.repository.split('/').pop()}:${m.path}`));
}

function serviceOf(searchers: readonly Searcher[]): SearchService {
  return createSearchService(deps, searchers);
}

after(() => pool.close());

describe('the searcher list', () => {
  it('a searcher put first answers what it accepts, over the repositories the service selected', async () => {
    const added = serviceOf([everySelectedRepo, ...defaultSearchers(deps)]);
    assert.deepEqual(listed(await serviceOf(defaultSearchers(deps)).search({ query: 'type:repo nowhere' })), []);
    const response = await added.search({ query: 'type:repo nowhere' });
    assert.deepEqual(listed(response).sort(), ['repo:github.com/acme/alpha', 'repo:github.com/acme/beta']);
    assert.equal(response.matchCount, 2);
    assert.deepEqual(response.skipped.map((s) => s.reason), ['repository-fork']);
    assert.deepEqual(listed(await added.search({ query: 'type:repo nowhere repo:beta' })), ['repo:github.com/acme/beta']);
  });

  it('the searchers after it still answer the rest, and its matches are listed in its section', async () => {
    const added = serviceOf([everySelectedRepo, ...defaultSearchers(deps)]);
    assert.deepEqual(listed(await added.search({ query: 'type:file hello repo:alpha' })), ['alpha:README.md']);
    const all = await added.search({ query: '(type:file hello repo:alpha) OR (type:commit initial repo:alpha) OR (type:repo nowhere repo:beta)' });
    assert.deepEqual(listed(all), ['repo:github.com/acme/beta', 'commit:initial', 'alpha:README.md']);
    assert.equal(all.matchCount, 3);
  });

  it('order decides: after the searcher that already accepts type:repo it is never asked', async () => {
    const [commits, diffs, repos, files] = defaultSearchers(deps);
    const late = serviceOf([commits!, diffs!, repos!, everySelectedRepo, files!]);
    assert.deepEqual(listed(await late.search({ query: 'type:repo nowhere' })), []);
    assert.deepEqual(listed(await late.search({ query: 'type:repo beta' })), ['repo:github.com/acme/beta']);
  });

  it('a query no searcher in the list accepts is refused as unsupported', async () => {
    await assert.rejects(serviceOf([everySelectedRepo]).search({ query: 'type:file hello' }), (err: Error & { code?: string }) => err.code === 'QUERY_UNSUPPORTED' && /type:file/.test(err.message));
  });
});
