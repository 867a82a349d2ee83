/**
 * Diff search against git itself: the commits found equal `git log -G<re>` (no merges, as git
 * shows no diff for them), the lines reported equal the added/removed lines git shows, ranges point
 * at the matches, and author, date, revision and added/removed filters act like their git log flags.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { packDiffLines, searchedKinds } from '../../src/history/diff-lines.js';
import { compileDiffPattern, type DiffPatternOptions } from '../../src/history/diff-match.js';
import type { CommitDiff } from '../../src/history/diff-model.js';
import { createDiffHistory, type DiffQuery } from '../../src/history/diff-service.js';
import { isQuarryError } from '../../src/errors.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';
import type { EnginePool } from '../../src/pool/pool.js';
import { git } from '../git/fixtures.js';
import { createDiffRepo, expectChangedLines, expectLogG, removeDiffRepo, type DiffRepo } from './diff-fixture.js';
import { anyOf, CommitFilterBuilder, type CommitFilter } from '../../src/history/commit-filter.js';

let repo: DiffRepo;
let pool: EnginePool;
before(() => {
  repo = createDiffRepo();
  pool = createInThreadEnginePool();
});
after(async () => {
  await pool.close();
  removeDiffRepo(repo);
});

function query(pattern: string, extra: Partial<DiffQuery> = {}): DiffQuery {
  return {
    pattern: compileDiffPattern(pattern, { regex: true, caseSensitive: true }),
    added: false, removed: false, metadata: null, after: null, before: null, revisions: [],
    count: 50, deadline: Date.now() + 30_000, ...extra,
  };
}

/** Any of the terms over `Name <email>`, case-insensitive, as the diff_search tool builds it. */
function authors(terms: readonly string[], regex: boolean): CommitFilter {
  const builder = new CommitFilterBuilder(false);
  return builder.build([anyOf(terms.map((term) => builder.atom('author', term, { regex })))!])!;
}

async function search(pattern: string, extra: Partial<DiffQuery> = {}) {
  const page = await createDiffHistory(() => repo.dir, pool).searchDiffs(['repo'], query(pattern, extra));
  return { commits: page.hits.map((h) => h.hit), limitHit: page.next !== null, timedOut: page.timedOut };
}

test('commits and changed lines equal git log -G and git show', async () => {
  for (const re of ['delta', 'gamma', 'BETA', 'eps.lon', 'k[27]', 'beta', 'nothing-here']) {
    const outcome = await search(re);
    assert.deepEqual(outcome.commits.map((c) => c.commit.oid), expectLogG(repo, re), re);
    for (const hit of outcome.commits) {
      const lines = hit.hunks.flatMap((h) => h.hits.map((l) => `${l.line.kind}${l.line.text}`)).sort();
      assert.deepEqual(lines, expectChangedLines(repo, hit.commit.oid, new RegExp(re)), `${re} in ${hit.commit.oid.slice(0, 7)}`);
    }
    assert.equal(outcome.limitHit, false);
  }
});

test('match ranges are code point offsets of each match, line numbers are each side\'s', async () => {
  const outcome = await search('delta', { revisions: ['feature'] });
  for (const hit of outcome.commits) {
    for (const hunk of hit.hunks) {
      for (const { line, ranges } of hunk.hits) {
        for (const [start, end] of ranges) assert.equal([...line.text].slice(start, end).join(''), 'delta');
        assert.equal(line.kind === '+' ? line.oldLine : line.newLine, null);
      }
    }
  }
  const feature = outcome.commits.find((c) => c.commit.oid === repo.oids.f1)!;
  const unicode = feature.hunks[0]!.hits[0]!;
  assert.deepEqual([unicode.line.text, unicode.line.newLine, unicode.ranges], ['ünïcode delta', 2, [[8, 13]]]);
  const keep = (await search('delta')).commits.find((c) => c.commit.oid === repo.oids.c2)!.hunks.find((h) => h.newPath === 'keep.txt')!;
  assert.deepEqual(keep.hits.map((h) => h.line.newLine), [2]);
});

test('added and removed restrict the lines searched', async () => {
  const removed = await search('gamma', { removed: true });
  assert.deepEqual(removed.commits.map((c) => c.commit.oid), [repo.oids.m1]);
  const added = await search('gamma', { added: true });
  assert.deepEqual(added.commits.map((c) => c.commit.oid), [repo.oids.c1]);
  for (const hit of added.commits) assert.deepEqual(hit.hunks.flatMap((h) => h.hits.map((l) => l.line.kind)), ['+']);
});

test('merges are not searched, as with git log -G: the change shows once, from its commit; empty commits match nothing', async () => {
  const outcome = await search('beta feature');
  assert.deepEqual(outcome.commits.map((c) => c.commit.oid), [repo.oids.f1]);
  assert.deepEqual(outcome.commits.map((c) => c.commit.oid), expectLogG(repo, 'beta feature'));
  assert.ok(!(await search('.')).commits.some((c) => c.commit.oid === repo.oids.empty));
});

test('authors, dates and revisions filter like git log --author, --since, --until and revision ranges', async () => {
  const byBob = await search('delta', { metadata: authors(['bob@'], false) });
  assert.deepEqual(byBob.commits.map((c) => c.commit.oid), expectLogG(repo, 'delta', 'HEAD', ['--author=bob@']));
  const byRegex = await search('delta', { metadata: authors(['^B[o]b ', 'nobody'], true) });
  assert.deepEqual(byRegex.commits.map((c) => c.commit.oid), expectLogG(repo, 'delta', 'HEAD', ['--regexp-ignore-case', '--author=^B[o]b ']));
  assert.deepEqual(byBob.commits.map((c) => c.commit.oid), expectLogG(repo, 'delta', 'HEAD', ['--author=bob@']));
  const since = new Date('2024-03-15T00:00:00Z');
  const until = new Date('2024-05-20T00:00:00Z');
  const dated = await search('delta|gamma', { after: since, before: until });
  assert.deepEqual(dated.commits.map((c) => c.commit.oid), expectLogG(repo, 'delta|gamma', 'HEAD', ['-E', `--since=${since.toISOString()}`, `--until=${until.toISOString()}`]));
  const onlyFeature = await search('delta', { revisions: ['feature', '^v1'] });
  assert.deepEqual(onlyFeature.commits.map((c) => c.commit.oid), expectLogG(repo, 'delta', 'feature', ['^v1']));
  assert.deepEqual(onlyFeature.commits.map((c) => c.commit.oid), [repo.oids.f1]);
});

test('count cuts newest first and says more exist', async () => {
  const all = await search('delta');
  const one = await search('delta', { count: 1 });
  assert.deepEqual(one.commits.map((c) => c.commit.oid), all.commits.slice(0, 1).map((c) => c.commit.oid));
  assert.equal(one.limitHit, true);
  assert.equal(all.limitHit, false);
});

test('a passed deadline stops the search and reports it', async () => {
  const outcome = await search('delta', { deadline: Date.now() - 1 });
  assert.equal(outcome.timedOut, true);
  assert.equal(outcome.limitHit, true);
});

test('bad patterns and revisions are clear errors', async () => {
  assert.throws(() => compileDiffPattern('(unclosed', { regex: true, caseSensitive: false }), (err) => isQuarryError(err, 'PATTERN_INVALID'));
  assert.throws(() => compileDiffPattern('', { regex: false, caseSensitive: false }), (err) => isQuarryError(err, 'PATTERN_INVALID'));
  await assert.rejects(search('delta', { revisions: ['nope'] }), (err) => isQuarryError(err, 'REVISION_NOT_FOUND') && /nope/.test(err.message));
  assert.equal(git(repo.dir, 'rev-parse', 'v1^{commit}'), repo.oids.c2);
});

/** The ranges the diff-lines task reports for `pattern` in one added line. */
async function rangesIn(pattern: string, options: DiffPatternOptions, text: string): Promise<number[][]> {
  const hunk = { oldRange: { startLine: 0, lines: 0 }, newRange: { startLine: 1, lines: 1 }, section: '', lines: [{ kind: '+' as const, text, oldLine: null, newLine: 1 }], oldNoNewlineAtEnd: false, newNoNewlineAtEnd: false };
  const commit = { files: [{ oldPath: null, newPath: 'f', status: 'added', binary: false, hunks: [hunk], added: 1, deleted: 0 }] } as unknown as CommitDiff;
  const task = { ...packDiffLines([commit]), pattern: compileDiffPattern(pattern, options), searched: searchedKinds(false, false), deadline: Date.now() + 30_000 };
  const { ranges } = await pool.submit('diff-lines', task);
  const pairs: number[][] = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i]!, ranges[i + 1]!]);
  return pairs;
}

test('literal patterns match their text, case-insensitively unless asked', async () => {
  assert.deepEqual(await rangesIn('e.s', { regex: false, caseSensitive: false }, 'E.S and eps'), [[0, 3]]);
  assert.deepEqual(await rangesIn('beta', { regex: false, caseSensitive: true }, 'BETA beta'), [[5, 9]]);
});
