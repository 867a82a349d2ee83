/**
 * A batch's posting lists packed into groups of neighbouring keys, one stored value per group of
 * about GROUP_BYTES: a per-list LMDB entry would cost more than most lists (a history batch has
 * hundreds of thousands of short ones). Layout: varint count, then per list its key's gap from the
 * previous one (the first's from the group's first key) and its byte length, then the lists back to
 * back (postings.ts gap encoding). Pure functions; storage lives in history-store.ts.
 */
import { writeGap } from '../postings.js';
import type { DiffPostingsRun } from './diff-postings.js';

/** Large enough that a group's partly used last page is a small share, small enough to read per lookup. */
export const GROUP_BYTES = 16 * 1024;

export interface PostingGroup {
  readonly firstKey: number;
  readonly bytes: Uint8Array;
}

export function packGroups(run: DiffPostingsRun, groupBytes = GROUP_BYTES): PostingGroup[] {
  const groups: PostingGroup[] = [];
  let first = 0;
  while (first < run.keys.length) {
    let last = first;
    let size = 0;
    while (last < run.keys.length && (last === first || size < groupBytes)) {
      size += listEnd(run, last) - listStart(run, last) + 6;
      last++;
    }
    groups.push({ firstKey: run.keys[first]!, bytes: packGroup(run, first, last) });
    first = last;
  }
  return groups;
}

/** The list of `key` in a group starting at `firstKey`: [start, end) in `group`, or null when absent. */
export function findInGroup(group: Uint8Array, firstKey: number, key: number): [number, number] | null {
  const reader = { pos: 0 };
  const count = readVarint(group, reader);
  let current = firstKey;
  let offset = 0;
  let found: [number, number] | null = null;
  for (let i = 0; i < count; i++) {
    current += readVarint(group, reader);
    const length = readVarint(group, reader);
    if (current === key) found = [offset, offset + length];
    offset += length;
  }
  // The lists start where the directory ends.
  return found === null ? null : [reader.pos + found[0], reader.pos + found[1]];
}

function packGroup(run: DiffPostingsRun, first: number, last: number): Uint8Array {
  let data = 0;
  for (let i = first; i < last; i++) data += listEnd(run, i) - listStart(run, i);
  const out = new Uint8Array(5 + (last - first) * 10 + data);
  let pos = writeGap(out, 0, last - first, -1);
  let previous = run.keys[first]!;
  for (let i = first; i < last; i++) {
    pos = writeGap(out, pos, run.keys[i]! - previous, -1);
    pos = writeGap(out, pos, listEnd(run, i) - listStart(run, i), -1);
    previous = run.keys[i]!;
  }
  for (let i = first; i < last; i++) {
    out.set(run.bytes.subarray(listStart(run, i), listEnd(run, i)), pos);
    pos += listEnd(run, i) - listStart(run, i);
  }
  return out.slice(0, pos);
}

function listStart(run: DiffPostingsRun, i: number): number {
  return i === 0 ? 0 : run.ends[i - 1]!;
}

function listEnd(run: DiffPostingsRun, i: number): number {
  return run.ends[i]!;
}

function readVarint(bytes: Uint8Array, reader: { pos: number }): number {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[reader.pos++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value;
    shift += 7;
  }
}
