/**
 * A trigram query checked against a document's block map (index/block-map.ts) before the document
 * is read: a `near` group can occur only in a block whose bitmap holds its trigrams. Contract, as
 * for candidates: never rules out a document that can match; anything it cannot judge passes.
 */
import { trigramBit, type BlockMapParams } from '../index/block-map.js';
import type { TrigramQuery } from '../model/trigram.js';

/** A query compiled for one map geometry: a near group becomes, per offset, the bits of its case variants. */
export type BlockQuery =
  | { readonly op: 'pass' }
  | { readonly op: 'fail' }
  | { readonly op: 'and' | 'or'; readonly args: readonly BlockQuery[] }
  | { readonly op: 'near'; readonly offsets: readonly (readonly number[])[] };

const PASS: BlockQuery = { op: 'pass' };

/** The compiled query, or null when it holds no near group (a map could rule nothing out). */
export function compileBlockQuery(q: TrigramQuery, params: BlockMapParams): BlockQuery | null {
  const compiled = compile(q, params);
  return usesMaps(compiled) ? compiled : null;
}

function compile(q: TrigramQuery, params: BlockMapParams): BlockQuery {
  switch (q.op) {
    case 'all':
    case 'tri':
      // A candidate holds each of its trigrams somewhere: alone, a trigram rules nothing out.
      return PASS;
    case 'none':
      return { op: 'fail' };
    case 'and':
    case 'or':
      return { op: q.op, args: q.args.map((arg) => compile(arg, params)) };
    case 'near': {
      const offsets: number[][] = [];
      // Only the first overlap + 1 trigrams of a string are sure to share its first block's bitmap.
      for (const arg of q.args.slice(0, params.overlap + 1)) {
        const bits = variantBits(arg, params.bits);
        if (bits !== null) offsets.push(bits);
      }
      return offsets.length === 0 ? PASS : { op: 'near', offsets };
    }
  }
}

/** The bits of a trigram or an OR of trigrams (case variants); null for anything else. */
function variantBits(arg: TrigramQuery, bits: number): number[] | null {
  if (arg.op === 'tri') return [trigramBit(arg.trigram, bits)];
  if (arg.op !== 'or' || !arg.args.every((v) => v.op === 'tri')) return null;
  return arg.args.map((v) => trigramBit((v as { readonly trigram: number }).trigram, bits));
}

function usesMaps(q: BlockQuery): boolean {
  return q.op === 'near' || ((q.op === 'and' || q.op === 'or') && q.args.some(usesMaps));
}

/** False only when no block of `bitmaps` (blocks of `bytesPerBlock`) can hold what the query needs. */
export function mayMatchInBlocks(q: BlockQuery, bitmaps: Uint8Array, bytesPerBlock: number): boolean {
  switch (q.op) {
    case 'pass':
      return true;
    case 'fail':
      return false;
    case 'and':
      return q.args.every((arg) => mayMatchInBlocks(arg, bitmaps, bytesPerBlock));
    case 'or':
      return q.args.some((arg) => mayMatchInBlocks(arg, bitmaps, bytesPerBlock));
    case 'near':
      for (let base = 0; base < bitmaps.length; base += bytesPerBlock) if (blockHolds(q.offsets, bitmaps, base)) return true;
      return false;
  }
}

function blockHolds(offsets: readonly (readonly number[])[], bitmaps: Uint8Array, base: number): boolean {
  for (const variants of offsets) {
    let any = false;
    for (const bit of variants) {
      if ((bitmaps[base + (bit >>> 3)]! & (1 << (bit & 7))) !== 0) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return true;
}
