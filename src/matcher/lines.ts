/**
 * Line numbers and extents for byte offsets: the one place the rest of Quarry gets them from.
 * One native pass over the hay; the pure-JS twin here stands in only when the addon is not built.
 */

import { createError } from '../errors.js';
import { HyperscanStatus, hyperscanStatusName } from './hyperscan-status.js';
import { nativeLineSpans } from './hyperscan.js';

type LineSpansImpl = (hay: Uint8Array, offsets: Int32Array, count: number, out: Int32Array) => number;

const NEWLINE = 10;

let chosen: { readonly run: LineSpansImpl; readonly engine: 'native' | 'js' } | undefined;

/**
 * For each of the first `count` offsets (ascending, each from 0 to hay.length) writes three ints
 * at out[3*i]: the 0-based line number (the '\n' bytes before the offset), the line's start
 * (just past the previous '\n', or 0) and its end (the first '\n' at or after the offset, or
 * hay.length; a '\r' before it is part of the line). An offset on a '\n' belongs to the line
 * that '\n' ends. `out` must not overlap `offsets`. Returns `count`; throws INTERNAL when `count`
 * exceeds offsets.length, `out` is shorter than count*3, or the offsets break the rules above.
 */
export function lineSpans(hay: Uint8Array, offsets: Int32Array, count: number, out: Int32Array): number {
  if (!Number.isInteger(count) || count < 0 || count > offsets.length) {
    throw createError('INTERNAL', `lineSpans: count ${count} is not an integer from 0 to ${offsets.length}`);
  }
  const result = choose().run(hay, offsets, count, out);
  if (result < 0) {
    const status = hyperscanStatusName(result);
    throw createError('INTERNAL', `lineSpans: ${status}`, { status, count, outLength: out.length, hayLength: hay.length });
  }
  return result;
}

/** Which implementation lineSpans() uses; 'js' means the addon is missing and lines are slow. */
export function lineSpansEngine(): 'native' | 'js' {
  return choose().engine;
}

/** The fallback, with the addon's exact contract and status codes; exported for the agreement test. */
export function lineSpansInJs(hay: Uint8Array, offsets: Int32Array, count: number, out: Int32Array): number {
  if (hay.length > 0x7fffffff) return HyperscanStatus.HAY_TOO_LARGE;
  if (Math.floor(out.length / 3) < count) return HyperscanStatus.OUT_TOO_SMALL;
  // As in the addon: a virtual newline at -1 ends the line before the first offset.
  let lineEnd = -1;
  let line = -1;
  let lineStart = 0;
  let previous = 0;
  for (let i = 0; i < count; i++) {
    const offset = offsets[i];
    if (offset < previous || offset > hay.length) return HyperscanStatus.OFFSETS_INVALID;
    previous = offset;
    if (offset > lineEnd) {
      line++;
      lineStart = lineEnd + 1;
      let newline = hay.indexOf(NEWLINE, lineStart);
      while (newline !== -1 && newline < offset) {
        line++;
        lineStart = newline + 1;
        newline = hay.indexOf(NEWLINE, lineStart);
      }
      lineEnd = newline === -1 ? hay.length : newline;
    }
    out[i * 3] = line;
    out[i * 3 + 1] = lineStart;
    out[i * 3 + 2] = lineEnd;
  }
  return count;
}

function choose(): { readonly run: LineSpansImpl; readonly engine: 'native' | 'js' } {
  if (chosen === undefined) {
    const native = nativeLineSpans();
    chosen = native ? { run: native, engine: 'native' } : { run: lineSpansInJs, engine: 'js' };
  }
  return chosen;
}
