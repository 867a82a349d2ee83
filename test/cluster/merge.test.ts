/**
 * The front end's merge of search nodes' answers: files in the single-node rank order whatever
 * node found them, cut to the limit with the limit notice, repositories and commits listed once,
 * notices said once, and the repositories nobody answered for named with why.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeAnswers } from '../../src/cluster/merge.js';
import type { FileMatch, SearchResponse, SkippedNotice } from '../../src/model/result.js';
import { emptyStats } from '../../src/model/stats.js';
import { rankFileMatches } from '../../src/search/rank.js';

function file(repository: string, path: string, score: number, matchCount = 1): FileMatch {
  return {
    type: 'content', repository, repositoryID: repository.length, commit: 'c'.repeat(40), branches: ['main'], path, language: null,
    lineMatches: Array.from({ length: matchCount }, (_, i) => ({ line: 'x', lineNumber: i, offsetAndLengths: [[0, 1]] })), pathMatches: [], matchCount, score,
  };
}

function answer(matches: SearchResponse['matches'], skipped: SkippedNotice[] = []): SearchResponse {
  const stats = emptyStats();
  stats.shardsSearched = matches.length;
  return { matches, matchCount: matches.reduce((n, m) => n + (m.type === 'repo' ? 1 : m.matchCount), 0), limitHit: false, skipped, stats, query: 'q' };
}

const TIMEOUT: SkippedNotice = { reason: 'shard-timeout', title: 'search timed out', message: 'partial', severity: 'warn' };

describe('merging search nodes\' answers', () => {
  it('lists files in the rank order of one node holding them all, and sums statistics', () => {
    const a = [file('r/a', 'x.go', 5), file('r/a', 'long/path.go', 9), file('r/a', 'b.go', 1)];
    const b = [file('r/b', 'x.go', 5), file('r/b', 'y.go', 9), file('r/b', 'a.go', 1)];
    const merged = mergeAnswers([answer(a), answer(b)], Infinity, 'q', new Map());
    assert.deepEqual(merged.matches, rankFileMatches([...a, ...b]));
    assert.equal(merged.matchCount, 6);
    assert.equal(merged.stats.shardsSearched, 6);
    assert.equal(merged.limitHit, false);
    assert.deepEqual(merged.skipped, []);
  });

  it('cuts to the limit across nodes and says the limit was hit', () => {
    const merged = mergeAnswers([answer([file('r/a', 'a', 3, 2), file('r/a', 'b', 1, 2)]), answer([file('r/b', 'a', 2, 2)])], 5, 'q', new Map());
    assert.deepEqual(merged.matches.map((m) => m.type !== 'repo' && m.type !== 'commit' ? [m.repository, m.path, m.matchCount] : null), [['r/a', 'a', 2], ['r/b', 'a', 2], ['r/a', 'b', 1]]);
    assert.equal(merged.matchCount, 5);
    assert.equal(merged.limitHit, true);
    assert.deepEqual(merged.skipped.map((s) => s.reason), ['shard-match-limit']);
  });

  it('says each node\'s notice once and names the repositories nobody answered for', () => {
    const merged = mergeAnswers([answer([], [TIMEOUT]), answer([], [TIMEOUT])], 10, 'q', new Map([['ECONNREFUSED', ['r/c', 'r/a']], ['no live search node', ['r/d']]]));
    assert.deepEqual(merged.skipped.map((s) => s.reason), ['shard-timeout', 'shard-failed', 'shard-failed']);
    assert.match(merged.skipped[1]!.message, /ECONNREFUSED\): r\/a, r\/c;/);
    assert.equal(merged.skipped[1]!.title, '2 repositories not searched');
    assert.match(merged.skipped[2]!.message, /no live search node\): r\/d;/);
  });

  it('lists a repository found by two nodes once, repositories before files', () => {
    const repo = { type: 'repo' as const, repository: 'r/a', repositoryID: 3, branches: [], fork: false, archived: false };
    const merged = mergeAnswers([answer([repo, file('r/a', 'x', 1)]), answer([repo])], 10, 'q', new Map());
    assert.deepEqual(merged.matches.map((m) => m.type), ['repo', 'content']);
  });
});
