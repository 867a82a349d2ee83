/**
 * Case-fold orbits exactly as the JS engine's `iu` flags see them (Unicode simple case folding),
 * which is also RE2's `(?i)`. The full table is built lazily from the running engine, once.
 */

import type { PropertyItem } from './ast.js';
import { codePointsOf, complement, contains, maxOf, pairsOf, rangeSet, sameSet, type RangeSet } from './charset.js';

/** The only non-ASCII code points that fold to ASCII: KELVIN SIGN and LATIN SMALL LETTER LONG S. */
const ASCII_EXTRAS: ReadonlyMap<number, number> = new Map([
  [0x6b, 0x212a],
  [0x73, 0x17f],
]);

/** Every code point in a non-trivial orbit, mapped to its orbit (sorted). */
let table: Map<number, readonly number[]> | null = null;
const orbits: (readonly number[])[] = [];

function isAsciiLetter(cp: number): boolean {
  return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
}

function asciiOrbit(cp: number): readonly number[] {
  if (!isAsciiLetter(cp)) return [cp];
  const lower = cp | 0x20;
  const extra = ASCII_EXTRAS.get(lower);
  return extra === undefined ? [lower & ~0x20, lower] : [lower & ~0x20, lower, extra];
}

/** Links code points that case mapping connects, then splits each component by what `iu` equates. */
function buildTable(): Map<number, readonly number[]> {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    while ((parent.get(root) ?? root) !== root) root = parent.get(root) as number;
    parent.set(x, root);
    return root;
  };
  const link = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  const byMultiMapping = new Map<string, number>();
  const linkMapping = (cp: number, mapped: string, tag: string): void => {
    const first = mapped.codePointAt(0) as number;
    if (String.fromCodePoint(first) === mapped) return link(cp, first);
    const key = tag + mapped;
    const seen = byMultiMapping.get(key);
    if (seen === undefined) byMultiMapping.set(key, cp);
    else link(cp, seen);
  };
  // Every code point with case variants changes under some case mapping; the rest need no look.
  const changesCase = /\p{Changes_When_Casemapped}/u;
  for (let cp = 0; cp < 0x20000; cp++) {
    const s = String.fromCodePoint(cp);
    if ((cp >= 0xd800 && cp <= 0xdfff) || !changesCase.test(s)) continue;
    const lower = s.toLowerCase();
    const upper = s.toUpperCase();
    if (lower !== s) linkMapping(cp, lower, 'l');
    if (upper !== s) linkMapping(cp, upper, 'u');
  }
  const components = new Map<number, number[]>();
  for (const cp of parent.keys()) {
    const root = find(cp);
    const members = components.get(root) ?? [];
    members.push(cp);
    components.set(root, members);
  }
  const result = new Map<number, readonly number[]>();
  for (const members of components.values()) {
    let rest = [...new Set(members)].sort((a, b) => a - b);
    while (rest.length > 0) {
      const rep = rest[0] as number;
      const sameFold = new RegExp(`^\\u{${rep.toString(16)}}$`, 'iu');
      const orbit = rest.filter((cp) => cp === rep || sameFold.test(String.fromCodePoint(cp)));
      rest = rest.filter((cp) => !orbit.includes(cp));
      if (orbit.length < 2) continue;
      orbits.push(orbit);
      for (const cp of orbit) result.set(cp, orbit);
    }
  }
  return result;
}

function fullTable(): Map<number, readonly number[]> {
  if (table === null) table = buildTable();
  return table;
}

/**
 * Builds the full case-fold table now (about 0.2 s): a server does it before it listens, so the
 * first request with a non-ASCII caseless pattern does not hold its main thread that long.
 */
export function prepareCaseFolding(): void {
  fullTable();
}

/** The code points `cp` matches case-insensitively, itself included, sorted. */
export function orbitOf(cp: number): readonly number[] {
  if (cp < 0x80) return asciiOrbit(cp);
  return fullTable().get(cp) ?? [cp];
}

export function hasCaseVariants(cp: number): boolean {
  return orbitOf(cp).length > 1;
}

function closeAscii(set: RangeSet): RangeSet {
  const pairs = pairsOf(set);
  for (let cp = 0x41; cp <= 0x7a; cp++) {
    if (isAsciiLetter(cp) && contains(set, cp)) for (const v of asciiOrbit(cp)) pairs.push([v, v]);
  }
  return rangeSet(pairs);
}

/** Closed sets by their members: patterns spell the same classes again and again (`\w`, `[a-z]`). */
const closedSets = new Map<string, RangeSet>();
const CLOSED_SETS_MAX = 1024;

function memoClosed(key: string, close: () => RangeSet): RangeSet {
  const known = closedSets.get(key);
  if (known) return known;
  const closed = close();
  if (closedSets.size >= CLOSED_SETS_MAX) closedSets.clear();
  closedSets.set(key, closed);
  return closed;
}

/** Adds every case variant of every member: the set RE2 builds for a class under `(?i)`. */
export function foldClose(set: RangeSet): RangeSet {
  return memoClosed(set.join(','), () => computeFoldClose(set));
}

function computeFoldClose(set: RangeSet): RangeSet {
  if (maxOf(set) < 0x80) return closeAscii(set);
  const outside = complement(set);
  if (maxOf(outside) < 0x80) {
    // Only ASCII lies outside: a code point stays outside when its whole orbit does.
    const stillOutside = codePointsOf(outside).filter((cp) => asciiOrbit(cp).every((v) => contains(outside, v)));
    return complement(rangeSet(stillOutside.map((cp): [number, number] => [cp, cp])));
  }
  fullTable();
  const pairs = pairsOf(set);
  for (const orbit of orbits) {
    if (orbit.some((cp) => contains(set, cp))) for (const cp of orbit) pairs.push([cp, cp]);
  }
  return rangeSet(pairs);
}

/**
 * Folds a class that also holds Unicode properties: adds to `set` every code point whose orbit
 * meets the class, so the set plus the properties is closed and can be spelled without a flag.
 */
export function foldCloseClass(set: RangeSet, props: readonly PropertyItem[]): RangeSet {
  const closed = foldClose(set);
  if (props.length === 0) return closed;
  const key = `${set.join(',')}|${props.map((p) => `${p.negated ? '^' : ''}${p.name}`).join(',')}`;
  return memoClosed(key, () => closeWithProps(closed, props));
}

function closeWithProps(closed: RangeSet, props: readonly PropertyItem[]): RangeSet {
  fullTable();
  const tests = props.map((p) => new RegExp(`^\\${p.negated ? 'P' : 'p'}{${p.name}}$`, 'u'));
  const inClass = (cp: number): boolean => contains(closed, cp) || tests.some((t) => t.test(String.fromCodePoint(cp)));
  const pairs = pairsOf(closed);
  for (const orbit of orbits) {
    if (orbit.some(inClass)) for (const cp of orbit) if (!inClass(cp)) pairs.push([cp, cp]);
  }
  return rangeSet(pairs);
}

/** True when the class already holds every case variant of its members. */
export function isFoldClosed(set: RangeSet, props: readonly PropertyItem[]): boolean {
  return sameSet(foldCloseClass(set, props), set);
}
