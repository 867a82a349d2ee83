/**
 * Merges runs (each covering consecutive doc ids) into one segment's posting lists, packed into
 * blocks for LMDB. Linear in the total size: one pass to size each list, one pass to copy.
 */
import { BLOCK_TARGET_BYTES, LOC_BITSET } from '../format.js';
import { bitsetBytes, decodePostings, writeBitset, writeGap } from '../postings.js';
import type { PostingRun } from './run.js';

export interface MergedPostings {
  /** Distinct trigrams, ascending. */
  readonly trigrams: Uint32Array;
  /** Per trigram: block number, offset in block, length (| LOC_BITSET when the list is a bitset). */
  readonly locations: Uint32Array;
  readonly blocks: readonly Uint8Array[];
  readonly postingBytes: number;
}

const TRIGRAM_SPACE = 1 << 24;

export function mergeRuns(unordered: readonly PostingRun[]): MergedPostings {
  const runs = [...unordered].sort((a, b) => a.firstDoc - b.firstDoc);
  // Left zero (unseen): the pages no trigram lands on are never touched, and every page this
  // process touches makes each later fork (every git spawn) slower.
  const slotOf = new Int32Array(TRIGRAM_SPACE);
  const { trigrams, capacity } = assignSlots(runs, slotOf);
  const { starts, arena } = layoutArena(capacity);
  const cursors = starts.slice(0, trigrams.length);
  const lastIds = new Int32Array(trigrams.length).fill(-1);
  for (const run of runs) appendRun(run, slotOf, arena, cursors, lastIds);
  const bitsets = toBitsets(starts, cursors, lastIds, arena);
  return packBlocks(trigrams, starts, cursors, arena, bitsets);
}

/** Gives each distinct trigram a dense slot in ascending order; returns per-slot byte capacity. */
function assignSlots(runs: readonly PostingRun[], slotOf: Int32Array): { trigrams: Uint32Array; capacity: Uint32Array } {
  const seen: number[] = [];
  for (const run of runs) {
    for (const t of run.trigrams) {
      if (slotOf[t] === 0) {
        slotOf[t] = 1;
        seen.push(t);
      }
    }
  }
  const trigrams = Uint32Array.from(seen).sort();
  for (let s = 0; s < trigrams.length; s++) slotOf[trigrams[s]!] = s;
  const capacity = new Uint32Array(trigrams.length);
  for (const run of runs) {
    let start = 0;
    for (let i = 0; i < run.trigrams.length; i++) {
      const end = run.ends[i]!;
      capacity[slotOf[run.trigrams[i]!]!]! += end - start;
      start = end;
    }
  }
  return { trigrams, capacity };
}

function layoutArena(capacity: Uint32Array): { starts: Uint32Array; arena: Uint8Array } {
  const starts = new Uint32Array(capacity.length + 1);
  let total = 0;
  for (let s = 0; s < capacity.length; s++) {
    starts[s] = total;
    total += capacity[s]!;
  }
  starts[capacity.length] = total;
  return { starts, arena: new Uint8Array(total) };
}

/**
 * Copies each list of the run after what earlier runs wrote for the same trigram. Only the first
 * gap changes (it was relative to -1, now to the previous run's last id), and it can only shrink.
 */
function appendRun(run: PostingRun, slotOf: Int32Array, arena: Uint8Array, cursors: Uint32Array, lastIds: Int32Array): void {
  const src = run.bytes;
  let start = 0;
  for (let i = 0; i < run.trigrams.length; i++) {
    const end = run.ends[i]!;
    const s = slotOf[run.trigrams[i]!]!;
    let from = start;
    while (src[from]! & 0x80) from++;
    from++;
    let to = writeGap(arena, cursors[s]!, run.firstIds[i]!, lastIds[s]!);
    for (let k = from; k < end; k++) arena[to++] = src[k]!;
    cursors[s] = to;
    lastIds[s] = run.lastIds[i]!;
    start = end;
  }
}

/**
 * Rewrites in place, as bitsets, the lists a bitset holds in fewer bytes (a trigram in more than
 * about one document in eight): smaller, and intersected by testing bits instead of decoding.
 */
function toBitsets(starts: Uint32Array, ends: Uint32Array, lastIds: Int32Array, arena: Uint8Array): Uint8Array {
  const bitsets = new Uint8Array(lastIds.length);
  let scratch = new Uint32Array(1024);
  for (let s = 0; s < lastIds.length; s++) {
    const size = bitsetBytes(lastIds[s]!);
    if (lastIds[s]! < 0 || size >= ends[s]! - starts[s]!) continue;
    const ids = decodePostings(arena, starts[s]!, ends[s]!, scratch);
    if (ids.buffer !== scratch.buffer) scratch = new Uint32Array(ids.buffer as ArrayBuffer);
    arena.fill(0, starts[s]!, ends[s]!);
    writeBitset(ids, arena, starts[s]!);
    ends[s] = starts[s]! + size;
    bitsets[s] = 1;
  }
  return bitsets;
}

function packBlocks(trigrams: Uint32Array, starts: Uint32Array, ends: Uint32Array, arena: Uint8Array, bitsets: Uint8Array): MergedPostings {
  const locations = new Uint32Array(trigrams.length * 3);
  const blocks: Uint8Array[] = [];
  let blockStart = 0;
  let blockLength = 0;
  let postingBytes = 0;
  let first = 0;
  const flush = (upTo: number): void => {
    const block = new Uint8Array(blockLength);
    let pos = 0;
    for (let s = first; s < upTo; s++) {
      block.set(arena.subarray(starts[s]!, ends[s]!), pos);
      pos += ends[s]! - starts[s]!;
    }
    blocks.push(block);
    first = upTo;
    blockStart = 0;
    blockLength = 0;
  };
  for (let s = 0; s < trigrams.length; s++) {
    const length = ends[s]! - starts[s]!;
    if (blockLength > 0 && blockLength + length > BLOCK_TARGET_BYTES) flush(s);
    locations[s * 3] = blocks.length;
    locations[s * 3 + 1] = blockStart;
    locations[s * 3 + 2] = bitsets[s] === 1 ? (length | LOC_BITSET) >>> 0 : length;
    blockStart += length;
    blockLength += length;
    postingBytes += length;
  }
  if (blockLength > 0) flush(trigrams.length);
  return { trigrams, locations, blocks, postingBytes };
}
