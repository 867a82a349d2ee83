/**
 * nls_search's size prior: a long hub file that mentions every term somewhere yields to the short
 * file that implements the thing asked about; unreadable and trailing files keep their scores.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FileMatch } from '../../../../src/model/result.js';
import { rankFiles, type ScoredFile } from '../../../../src/api/mcp/tools/nls-rank.js';
import { SIZE_RERANKED, sizeFactor, withSizePrior } from '../../../../src/api/mcp/tools/nls-size.js';
import { parseNlsQuery } from '../../../../src/api/mcp/tools/nls-terms.js';
import { ENCODER_LINES, HUB_LINES, HUB_QUERY as QUERY } from './hub-fixture.js';

const TERMS = /escap|entit|charset|output/i;

/** A file's match as the engine returns it (only the lines holding a term), and its length in lines. */
function file(path: string, lines: readonly string[]): { match: FileMatch; lines: number } {
  const lineMatches = lines.map((line, lineNumber) => ({ line, lineNumber, offsetAndLengths: [[0, 1]] as [number, number][] })).filter((l) => TERMS.test(l.line));
  return {
    match: { type: 'content', repository: 'r', repositoryID: 1, commit: 'c'.repeat(40), branches: [], path, language: null, lineMatches, pathMatches: [], matchCount: lineMatches.length, score: 0 },
    lines: lines.length,
  };
}

describe('size prior', () => {
  test('a file of the mean length keeps its score, a longer one loses, a shorter one gains, within bounds', () => {
    assert.equal(sizeFactor(100, 100), 1);
    assert.ok(sizeFactor(1000, 100) < 0.7 && sizeFactor(1000, 100) > 0.5, String(sizeFactor(1000, 100)));
    assert.ok(sizeFactor(5, 100) > 1 && sizeFactor(5, 100) < 1.25, String(sizeFactor(5, 100)));
  });

  test('the short file implementing the concept outranks a long hub that BM25 alone puts first', async () => {
    const hub = file('src/document.ts', HUB_LINES);
    const encoder = file('src/encoder.ts', ENCODER_LINES);
    const bm25 = rankFiles([hub.match, encoder.match], parseNlsQuery(QUERY), 1000);
    assert.deepEqual(bm25.map((f) => f.match.path), ['src/document.ts', 'src/encoder.ts'], 'BM25 alone must prefer the hub for this test to mean anything');
    const lengths = new Map([[hub.match.path, hub.lines], [encoder.match.path, encoder.lines]]);
    const sized = await withSizePrior(bm25, async (f) => lengths.get(f.path) ?? null);
    assert.deepEqual(sized.map((f) => f.match.path), ['src/encoder.ts', 'src/document.ts']);
  });

  test('a file whose length cannot be read, and files past the leading ones, keep their scores', async () => {
    const scored = (path: string, score: number): ScoredFile => ({ match: file(path, ['escape']).match, hits: [], score, concepts: 1 });
    const ranked = [scored('long.ts', 10), scored('unread.ts', 9), scored('short.ts', 8), ...Array.from({ length: SIZE_RERANKED }, (_, i) => scored(`tail${i}.ts`, 1))];
    const lengths = new Map<string, number>([['long.ts', 5000], ['short.ts', 10], ...ranked.slice(3).map((f): [string, number] => [f.match.path, 100])]);
    const sized = await withSizePrior(ranked, async (f) => lengths.get(f.path) ?? null);
    assert.equal(sized.find((f) => f.match.path === 'unread.ts')!.score, 9);
    assert.deepEqual(sized.slice(0, 3).map((f) => f.match.path), ['short.ts', 'unread.ts', 'long.ts']);
    const last = sized.at(-1)!;
    assert.equal(last.match.path, `tail${SIZE_RERANKED - 1}.ts`);
    assert.equal(last.score, 1, 'a file past the leading ones is not read, so not resized');
  });
});
