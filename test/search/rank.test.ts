/**
 * The engine's file order is total: files that tie on every signal come out in one order whatever
 * order the shards reported them in (pages of an answer are cut from that order).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FileMatch } from '../../src/model/result.js';
import { rankFileMatches } from '../../src/search/rank.js';

function file(repository: string, commit: string, path: string, score: number): FileMatch {
  return { type: 'content', repository, repositoryID: 1, commit, branches: [], path, language: null, lineMatches: [], pathMatches: [], matchCount: 1, score };
}

const FILES = [
  file('github.com/acme/app', 'b'.repeat(40), 'src/a.ts', 10),
  file('github.com/acme/app', 'a'.repeat(40), 'src/a.ts', 10),
  file('github.com/acme/lib', 'c'.repeat(40), 'src/a.ts', 10),
  file('github.com/acme/app', 'a'.repeat(40), 'src/b.ts', 10),
  file('github.com/acme/app', 'a'.repeat(40), 'a.ts', 10),
  file('github.com/acme/app', 'a'.repeat(40), 'src/zz.ts', 20),
];

const key = (f: FileMatch): string => `${f.repository}@${f.commit.slice(0, 1)}:${f.path}`;

test('every order the shards may report gives the same ranking', () => {
  const expected = ['github.com/acme/app@a:src/zz.ts', 'github.com/acme/app@a:a.ts', 'github.com/acme/app@a:src/a.ts', 'github.com/acme/app@b:src/a.ts', 'github.com/acme/lib@c:src/a.ts', 'github.com/acme/app@a:src/b.ts'];
  const permutations = (items: readonly FileMatch[]): FileMatch[][] =>
    items.length <= 1 ? [[...items]] : items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
  for (const order of permutations(FILES)) assert.deepEqual(rankFileMatches(order).map(key), expected);
});
