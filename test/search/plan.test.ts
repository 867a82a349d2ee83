/** Planning: basic queries → shard plans, repository pruning, and segment splitting. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Manifest } from '../../src/index/manifest.js';
import { trigramQueryToString } from '../../src/model/trigram.js';
import { parseQuery } from '../../src/query/index.js';
import { planBasicQuery } from '../../src/search/plan.js';
import type { TextMatchRunner } from '../../src/history/text-atoms.js';
import { selectRepos as selectWithRunner } from '../../src/search/select-repos.js';
import { segmentRanges } from '../../src/search/tasks.js';

const plan = (q: string) => planBasicQuery(parseQuery(q).basics[0]!, { matcher: 'auto' });

/** Plain-text repo: patterns are matched on the calling thread: a runner that refuses proves it. */
const noPool: TextMatchRunner = {
  submit: () => Promise.reject(new Error('a plain-text repo: pattern reached the worker pool')),
};
const selectRepos = (all: Manifest[], filters: Parameters<typeof selectWithRunner>[1]) => selectWithRunner(all, filters, noPool, { deadline: Date.now() + 5000 });

function manifest(repo: string, extra: Partial<Manifest> = {}): Manifest {
  return {
    formatVersion: 1, repo, repoId: repo.length, commit: 'c'.repeat(40), branch: 'main', indexedAt: '', fork: false, archived: false,
    segments: [{ id: `${repo}-s`, docCount: 10, deleted: [] }], skipped: [], files: 10, bytes: 0, ...extra,
  };
}

describe('planBasicQuery', () => {
  it('gives each atom its pattern, trigram query and match scope', () => {
    const p = plan('foo -content:bar type:file case:yes');
    assert.equal(p.patterns.length, 2);
    assert.deepEqual(p.atoms.map((a) => [a.negated, a.matchContent, a.matchPath]), [[false, true, false], [true, true, false]]);
    assert.equal(trigramQueryToString(p.atoms[0]!.trigrams), '"foo"');
    assert.deepEqual(p.expr, { op: 'and', args: [{ op: 'atom', atom: 0 }, { op: 'atom', atom: 1 }] });
  });

  it('keyword terms also match paths unless type: or content: says otherwise', () => {
    assert.deepEqual(plan('foo').atoms.map((a) => [a.matchContent, a.matchPath]), [[true, true]]);
    assert.deepEqual(plan('type:path foo').atoms.map((a) => [a.matchContent, a.matchPath]), [[false, true]]);
    assert.deepEqual(plan('content:foo').atoms.map((a) => [a.matchContent, a.matchPath]), [[true, false]]);
  });

  it('turns file: and lang: filters into path patterns and language names', () => {
    const p = plan('x file:\\.go$ -file:_test lang:go -lang:python');
    assert.equal(p.fileInclude.length, 1);
    assert.equal(p.fileExclude.length, 1);
    assert.deepEqual([p.langInclude, p.langExclude], [['Go'], ['Python']]);
  });

  it('regex atoms with no literal of three bytes ask every document', () => {
    assert.equal(trigramQueryToString(plan('patterntype:regexp a+b').atoms[0]!.trigrams), '+');
    assert.deepEqual(plan('"Foo Bar"').exactTexts, ['Foo Bar']);
  });

  it('case:yes makes patterns case-sensitive', () => {
    assert.equal(plan('foo').patterns[0]!.caseless, true);
    assert.equal(plan('foo case:yes').patterns[0]!.caseless, false);
  });
});

describe('selectRepos', () => {
  const all = [manifest('github.com/a/one'), manifest('github.com/a/two', { fork: true }), manifest('github.com/b/three', { archived: true })];
  const filters = (q: string) => parseQuery(q).basics[0]!.filters;

  it('prunes by repo: and -repo: before any worker is involved', async () => {
    assert.deepEqual((await selectRepos(all, filters('repo:one x'))).targets.map((t) => t.manifest.repo), ['github.com/a/one']);
    assert.deepEqual((await selectRepos(all, filters('-repo:one x fork:yes archived:yes'))).targets.map((t) => t.manifest.repo), ['github.com/a/two', 'github.com/b/three']);
    assert.deepEqual((await selectRepos(all, filters('repo:^GitHub\\.com/a/one$ x'))).targets.map((t) => t.manifest.repo), ['github.com/a/one']);
  });

  it('excludes forks and archived repositories by default, with notices', async () => {
    const s = await selectRepos(all, filters('x'));
    assert.deepEqual(s.targets.map((t) => t.manifest.repo), ['github.com/a/one']);
    assert.deepEqual(s.notices.map((n) => n.reason), ['repository-fork', 'excluded-archive']);
  });

  it('carries revisions from repo:x@rev and rev:', async () => {
    assert.deepEqual((await selectRepos(all, filters('repo:one@v1:v2 x'))).targets[0]!.revs, ['v1', 'v2']);
    assert.deepEqual((await selectRepos(all, filters('repo:one rev:v3 x'))).targets[0]!.revs, ['v3']);
  });
});

describe('segmentRanges', () => {
  it('keeps small segments whole and splits large ones across threads', () => {
    assert.deepEqual(segmentRanges(manifest('r'), 2).map((r) => [r.lo, r.hi]), [[0, 10]]);
    const big = manifest('r', { segments: [{ id: 's', docCount: 40000, deleted: [5, 39999] }] });
    const ranges = segmentRanges(big, 2);
    assert.equal(ranges.length, 2);
    assert.equal(segmentRanges(big, 8).length, 8);
    assert.equal(segmentRanges(manifest('r', { segments: [{ id: 's', docCount: 5000, deleted: [] }] }), 8).length, 2);
    assert.equal(ranges[0]!.lo, 0);
    assert.equal(ranges.at(-1)!.hi, 40000);
    assert.deepEqual(ranges.flatMap((r) => r.deleted), [5, 39999]);
  });

  it('skips segments whose documents are all deleted', () => {
    const gone = manifest('r', { segments: [{ id: 's', docCount: 2, deleted: [0, 1] }] });
    assert.deepEqual(segmentRanges(gone, 2), []);
  });
});
