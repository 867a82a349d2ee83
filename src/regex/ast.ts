/**
 * The parsed form of an RE2-syntax regular expression (plus backreferences and look-around).
 * Pure data: parsing builds it, the dialect emitters and the trigram analysis read it.
 */

import type { RangeSet } from './charset.js';

/** A Unicode property the JS engine knows, written as it goes inside `\p{…}` (e.g. `L`, `Script=Greek`). */
export interface PropertyItem {
  readonly name: string;
  readonly negated: boolean;
}

export type AssertKind = 'lineStart' | 'lineEnd' | 'textStart' | 'textEnd' | 'wordBoundary' | 'notWordBoundary';

export type RegexNode =
  | { readonly kind: 'empty' }
  /** `fold`: the literal sits in a case-insensitive scope and also matches its case variants. */
  | { readonly kind: 'literal'; readonly cp: number; readonly fold: boolean }
  /**
   * Matches a code point when (it is in `set` or has one of `props`) differs from `negated`.
   * When `fold` is set, `set` holds every case variant of the class's members (props included),
   * so the class means the same with or without a case-insensitive flag.
   */
  | {
      readonly kind: 'class';
      readonly set: RangeSet;
      readonly props: readonly PropertyItem[];
      readonly negated: boolean;
      readonly fold: boolean;
    }
  | { readonly kind: 'assert'; readonly assert: AssertKind }
  /** A capturing group; non-capturing groups leave no node behind. */
  | { readonly kind: 'group'; readonly index: number; readonly body: RegexNode }
  | { readonly kind: 'concat'; readonly items: readonly RegexNode[] }
  | { readonly kind: 'alt'; readonly items: readonly RegexNode[] }
  /** `max` is Infinity for unbounded repetition. */
  | { readonly kind: 'repeat'; readonly body: RegexNode; readonly min: number; readonly max: number; readonly lazy: boolean }
  | { readonly kind: 'backref'; readonly index: number; readonly fold: boolean }
  | { readonly kind: 'look'; readonly behind: boolean; readonly negated: boolean; readonly body: RegexNode };

export const EMPTY: RegexNode = Object.freeze({ kind: 'empty' });

/** True when the node consumes no characters on any path (assertions, look-around, empty). */
export function isZeroWidth(node: RegexNode): boolean {
  switch (node.kind) {
    case 'empty':
    case 'assert':
    case 'look':
      return true;
    case 'group':
    case 'repeat':
      return isZeroWidth(node.body);
    case 'concat':
    case 'alt':
      return node.items.every(isZeroWidth);
    default:
      return false;
  }
}

/** True when the node can match the empty string (assertions are assumed satisfiable). */
export function isNullable(node: RegexNode): boolean {
  switch (node.kind) {
    case 'empty':
    case 'assert':
    case 'look':
    case 'backref':
      return true;
    case 'literal':
    case 'class':
      return false;
    case 'group':
      return isNullable(node.body);
    case 'repeat':
      return node.min === 0 || isNullable(node.body);
    case 'concat':
      return node.items.every(isNullable);
    case 'alt':
      return node.items.some(isNullable);
  }
}
