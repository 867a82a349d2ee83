/**
 * Bracketed character classes `[…]` in RE2 syntax: ranges, escapes, Perl, POSIX and Unicode classes,
 * case folding applied before negation as RE2 does. Builds one class node.
 */

import type { PropertyItem, RegexNode } from './ast.js';
import { foldClose, foldCloseClass } from './case-fold.js';
import { complement, rangeSet, union, type RangeSet } from './charset.js';
import type { Cursor } from './cursor.js';
import { parseCharEscape, parsePerlClass, parsePosixClass, parseUnicodeClass } from './parse-escape.js';

/** Parses the class at the cursor (on its `[`). */
export function parseClass(cur: Cursor, fold: boolean): RegexNode {
  const start = cur.pos;
  cur.pos++;
  let negated = false;
  if (cur.peek() === '^') {
    negated = true;
    cur.pos++;
  }
  const pairs: [number, number][] = [];
  const groups: RangeSet[] = [];
  const props: PropertyItem[] = [];
  // A `]` right after the opening bracket is a member, not the end.
  for (let first = true; first || cur.peek() !== ']'; first = false) {
    if (cur.atEnd()) cur.fail(`missing closing ]: \`${cur.src.slice(start)}\``, start);
    if (cur.lookingAt('[:')) {
      const posix = parsePosixClass(cur, fold);
      if (posix !== null) {
        groups.push(posix);
        continue;
      }
    }
    if (cur.lookingAt('\\p') || cur.lookingAt('\\P')) {
      for (const item of parseUnicodeClass(cur, fold)) {
        if ('set' in item) groups.push(item.set);
        else props.push(item.prop);
      }
      continue;
    }
    const perl = cur.peek() === '\\' ? parsePerlClass(cur, fold) : null;
    if (perl !== null) {
      groups.push(perl);
      continue;
    }
    pairs.push(parseRange(cur));
  }
  cur.pos++;
  let set = rangeSet(pairs);
  if (fold) set = foldClose(set);
  for (const group of groups) set = union(set, group);
  if (fold) set = foldCloseClass(set, props);
  if (negated && props.length === 0) return { kind: 'class', set: complement(set), props, negated: false, fold };
  return { kind: 'class', set, props, negated, fold };
}

/** A single member or `lo-hi` range; a `-` that cannot end a range is a member. */
function parseRange(cur: Cursor): [number, number] {
  const start = cur.pos;
  const lo = parseClassChar(cur);
  if (cur.peek() !== '-' || cur.peek(1) === ']' || cur.peek(1) === '') return [lo, lo];
  cur.pos++;
  const hi = parseClassChar(cur);
  if (hi < lo) cur.fail(`invalid character class range: \`${cur.since(start)}\``, start);
  return [lo, hi];
}

function parseClassChar(cur: Cursor): number {
  return cur.peek() === '\\' ? parseCharEscape(cur) : cur.nextCodePoint();
}
