/**
 * Patterns a backtracking engine may take exponential time over: inside a repetition, a part that
 * can split the same text in more than one way makes a failing match try exponentially many splits
 * before it gives up. Two such parts are found: a repetition of variable count that can match what
 * comes right after it in the loop (`(x+x+)+`, `(x+)+`, `(\w+\s?)+`), and alternatives that can
 * begin with the same character (`(a|ab)*`). Unambiguous loops (`(ab?)+`, `((\w+),\s*)+`) pass.
 * Hyperscan runs every pattern in linear time, so only those it cannot take (backreferences,
 * look-around: the JS engine's) are judged. Polynomial cases (`x*x*x*`) stay bounded by the deadline.
 */
import { isNullable, type RegexNode } from './ast.js';
import { orbitOf } from './case-fold.js';
import { ALL_CODE_POINTS, complement, rangeSet, singleton, union, type RangeSet } from './charset.js';

/** Why running `root` with backtracking may take exponential time, or null when it cannot. */
export function exponentialBacktracking(root: RegexNode): string | null {
  return ambiguity(root, [], false);
}

/**
 * The first ambiguous part of `node` found, given the characters that can come right after it
 * (`follow`, the next iteration's start included) and whether it runs inside a repetition.
 */
function ambiguity(node: RegexNode, follow: RangeSet, inLoop: boolean): string | null {
  switch (node.kind) {
    case 'repeat': {
      const first = firstChars(node.body);
      if (inLoop && node.max > node.min && intersects(first, follow)) {
        return 'a repetition that can also match what follows it, inside another repetition (as in (x+x+)+ or (\\w+\\s?)+)';
      }
      if (node.max <= 1) return ambiguity(node.body, follow, inLoop);
      // After an iteration comes the next one; what follows the whole loop counts only in an outer loop.
      return ambiguity(node.body, inLoop ? union(first, follow) : first, true);
    }
    case 'concat': {
      let after = follow;
      for (let i = node.items.length - 1; i >= 0; i--) {
        const item = node.items[i]!;
        const why = ambiguity(item, after, inLoop);
        if (why !== null) return why;
        after = isNullable(item) ? union(firstChars(item), after) : firstChars(item);
      }
      return null;
    }
    case 'alt': {
      if (inLoop && alternativesOverlap(node.items)) return 'alternatives that can begin with the same character, inside a repetition (as in (a|ab)*)';
      for (const item of node.items) {
        const why = ambiguity(item, follow, inLoop);
        if (why !== null) return why;
      }
      return null;
    }
    case 'group':
      return ambiguity(node.body, follow, inLoop);
    case 'look':
      // Look-around is atomic in JS: once it holds, nothing backtracks into it. Its own loops still count.
      return ambiguity(node.body, [], false);
    default:
      return null;
  }
}

function alternativesOverlap(items: readonly RegexNode[]): boolean {
  let seen: RangeSet = [];
  for (const item of items) {
    const first = firstChars(item);
    if (intersects(seen, first)) return true;
    seen = union(seen, first);
  }
  return false;
}

/** The code points a non-empty match of `node` can begin with, or more (never fewer). */
function firstChars(node: RegexNode): RangeSet {
  switch (node.kind) {
    case 'literal':
      return node.fold ? union(singleton(node.cp), rangeSet(orbitOf(node.cp).map((cp) => [cp, cp] as const))) : singleton(node.cp);
    case 'class':
      // Properties and negation are not worked out: taken as anything, which can only refuse more.
      return node.negated || node.props.length > 0 ? ALL_CODE_POINTS : node.set;
    case 'backref':
      return ALL_CODE_POINTS;
    case 'group':
      return firstChars(node.body);
    case 'repeat':
      return node.max === 0 ? [] : firstChars(node.body);
    case 'alt':
      return node.items.reduce<RangeSet>((all, item) => union(all, firstChars(item)), []);
    case 'concat': {
      let all: RangeSet = [];
      for (const item of node.items) {
        all = union(all, firstChars(item));
        if (!isNullable(item)) break;
      }
      return all;
    }
    default:
      // Empty, assertions and look-around consume nothing.
      return [];
  }
}

function intersects(a: RangeSet, b: RangeSet): boolean {
  return complement(union(complement(a), complement(b))).length > 0;
}
