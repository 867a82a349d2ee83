/**
 * `type:diff` through the engine's search service against git itself: commits equal
 * `git log -G` (no merges: git shows no diff for them) with the matching author, date and revision flags, the
 * highlighted lines equal the added/removed lines `git show` prints, and bad input fails clearly.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import type { CommitMatch, SearchResponse } from '../../src/model/result.js';
import { parseQuery, queryToString } from '../../src/query/index.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../e2e/engine-fixture.js';
import { removeDir } from '../git/fixtures.js';
import { createDiffRepo, expectChangedLines, expectLogG, removeDiffRepo, type DiffRepo } from './diff-fixture.js';

const DEMO = 'example.com/diffs';
const HIDDEN = 'example.com/hidden';

/** The preview lines that carry a match range, as `+text` / `-text`, sorted. */
function highlightedLines(match: CommitMatch): string[] {
  const preview = match.diffPreview!;
  const lines = preview.value.split('\n');
  return [...new Set(preview.ranges.map(([line]) => line))].map((line) => lines[line]!).sort();
}

describe('type:diff in the search service', () => {
  let engine: EngineFixture;
  let repo: DiffRepo;
  before(async () => {
    engine = await createEngineFixture({ pool: 'in-thread' });
    repo = createDiffRepo();
    await addAndIndex(engine, DEMO, join(repo.dir, '..'));
    await addAndIndex(engine, HIDDEN, join(repo.dir, '..'));
  });
  after(async () => {
    await engine.engine.close();
    removeDir(engine.dataDir);
    removeDiffRepo(repo);
  });

  const search = (query: string): Promise<SearchResponse> => engine.engine.search.search({ query: `repo:^example\\.com/diffs$ ${query}` });
  const commits = (response: SearchResponse): CommitMatch[] => response.matches as CommitMatch[];
  const oids = (response: SearchResponse): string[] => commits(response).map((m) => m.oid).sort();

  test('commits equal git log -G and highlighted lines equal git show, per pattern type and case rule', async () => {
    const cases: [string, string, RegExp][] = [
      ['type:diff delta', 'delta', /delta/],
      ['type:diff patterntype:regexp case:yes eps.lon', 'eps.lon', /eps.lon/],
      ['type:diff patterntype:regexp case:yes k[27]', 'k[27]', /k[27]/],
      ['type:diff case:yes BETA', 'BETA', /BETA/],
      ['type:diff gamma', 'gamma', /gamma/],
      ['type:diff nothing-here', 'nothing-here', /nothing-here/],
    ];
    for (const [query, re, lineRe] of cases) {
      const response = await search(query);
      assert.ok(response.matches.every((m) => m.type === 'commit'), query);
      assert.deepEqual(oids(response), expectLogG(repo, re).sort(), query);
      for (const match of commits(response)) {
        assert.deepEqual(highlightedLines(match), expectChangedLines(repo, match.oid, lineRe), `${query} in ${match.oid.slice(0, 7)}`);
        assert.deepEqual(match.ranges, []);
      }
      assert.equal(response.matchCount, response.matches.length);
      assert.equal(response.limitHit, false, query);
    }
  });

  test('without case:yes the pattern ignores case; a merge is not searched, as with git log -G', async () => {
    const response = await search('type:diff beta');
    assert.deepEqual(oids(response), [...new Set([...expectLogG(repo, 'beta'), ...expectLogG(repo, 'BETA')])].sort());
    const feature = oids(await search('type:diff feature'));
    assert.deepEqual(feature, expectLogG(repo, 'feature', 'HEAD', ['-i']).sort());
    assert.ok(feature.includes(repo.oids.f1) && !feature.includes(repo.oids.merge));
  });

  test('select:commit.diff.added and .removed restrict the lines searched', async () => {
    for (const [select, kind] of [['added', '+'], ['removed', '-']] as const) {
      const response = await search(`type:diff select:commit.diff.${select} gamma`);
      const expected = expectLogG(repo, 'gamma').filter((oid) => expectChangedLines(repo, oid, /gamma/, kind).length > 0).sort();
      assert.deepEqual(oids(response), expected, select);
      assert.ok(expected.length > 0, select);
      for (const match of commits(response)) assert.deepEqual(highlightedLines(match), expectChangedLines(repo, match.oid, /gamma/, kind));
    }
  });

  test('author:, before:, after:, message: and revisions act like their git log flags', async () => {
    assert.deepEqual(oids(await search('type:diff author:bob delta')), expectLogG(repo, 'delta', 'HEAD', ['--author=Bob']).sort());
    assert.deepEqual(oids(await search('type:diff -author:bob delta')), expectLogG(repo, 'delta', 'HEAD', ['--author=Alice', '--author=Carol']).sort());
    const dated = await search('type:diff after:"2024-01-15" before:"2024-05-20" delta');
    assert.deepEqual(oids(dated), expectLogG(repo, 'delta', 'HEAD', ['--since=2024-01-15T00:00:00Z', '--until=2024-05-20T00:00:00Z']).sort());
    assert.ok(dated.matches.length > 0);
    assert.deepEqual(oids(await search('type:diff message:second delta')), expectLogG(repo, 'delta', 'HEAD', ['--grep=second']).sort());
    const feature = await engine.engine.search.search({ query: 'repo:^example\\.com/diffs$@feature type:diff delta' });
    assert.deepEqual(oids(feature), expectLogG(repo, 'delta', 'feature').sort());
    const tagged = await engine.engine.search.search({ query: 'repo:^example\\.com/diffs$@v1 type:diff delta' });
    assert.deepEqual(oids(tagged), expectLogG(repo, 'delta', 'v1').sort());
  });

  test('AND and NOT combine terms over a commit\'s changed lines', async () => {
    const delta = new Set(expectLogG(repo, 'delta'));
    const gamma = new Set(expectLogG(repo, 'gamma'));
    assert.deepEqual(oids(await search('type:diff delta gamma')), [...delta].filter((o) => gamma.has(o)).sort());
    assert.deepEqual(oids(await search('type:diff delta NOT gamma')), [...delta].filter((o) => !gamma.has(o)).sort());
    assert.deepEqual(oids(await search('type:diff (delta OR epsilon)')), [...new Set([...delta, ...expectLogG(repo, 'epsilon')])].sort());
  });

  test('count: cuts to the newest commits and reports the limit', async () => {
    const all = commits(await search('type:diff delta'));
    const cut = await search('type:diff count:1 delta');
    assert.equal(cut.limitHit, true);
    assert.deepEqual(commits(cut).map((m) => m.oid), [all[0]!.oid]);
    assert.ok(all.every((m, i) => i === 0 || Date.parse(all[i - 1]!.committerDate) >= Date.parse(m.committerDate)));
  });

  test('repositories the caller may not read are never searched', async () => {
    const everything = await engine.engine.search.search({ query: 'type:diff delta' });
    assert.deepEqual(new Set(everything.matches.map((m) => m.repository)), new Set([DEMO, HIDDEN]));
    const visible = await engine.engine.search.search({ query: 'type:diff delta', canRead: (name) => name !== HIDDEN });
    assert.ok(visible.matches.length > 0);
    assert.ok(visible.matches.every((m) => m.repository === DEMO));
  });

  test('bad patterns, dates, revisions and misplaced filters are clear errors', async () => {
    await assert.rejects(search('type:diff patterntype:regexp (oops'), (err) => isQuarryError(err, 'PATTERN_INVALID') || isQuarryError(err, 'QUERY_SYNTAX'));
    await assert.rejects(search('type:diff author:(oops delta'), (err) => isQuarryError(err, 'PATTERN_INVALID') || isQuarryError(err, 'QUERY_SYNTAX'));
    await assert.rejects(search('type:diff after:whenever delta'), (err) => isQuarryError(err, 'INVALID_ARGUMENT'));
    await assert.rejects(engine.engine.search.search({ query: 'repo:^example\\.com/diffs$@no-such-branch type:diff delta' }), (err) => isQuarryError(err, 'REVISION_NOT_FOUND'));
    await assert.rejects(search('type:diff author:bob'), (err) => isQuarryError(err, 'QUERY_UNSUPPORTED') && /needs a pattern/.test(err.message));
    await assert.rejects(search('select:commit.diff.added delta'), (err) => isQuarryError(err, 'QUERY_UNSUPPORTED') && /type:diff/.test(err.message));
    await assert.rejects(search('type:diff file:a\\.txt delta'), (err) => isQuarryError(err, 'QUERY_UNSUPPORTED'));
    assert.equal(queryToString(parseQuery('type:diff select:commit.diff.removed foo')), '(and type:diff select:commit.diff.removed "foo")');
  });
});
