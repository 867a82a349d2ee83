/**
 * Decides whether a pattern can carry one pattern-wide case-insensitive flag (JS `i`, HS_FLAG_CASELESS)
 * or must spell its case-insensitive parts out as `[aA]` classes, and rejects what cannot be spelled.
 */

import { createError } from '../errors.js';
import type { RegexNode } from './ast.js';
import { hasCaseVariants, isFoldClosed } from './case-fold.js';

/**
 * Caseless when something folds (or the search asked for it) and nothing case-sensitive would be
 * changed by folding everything. Word boundaries prefer spelled-out cases too: under JS `iu`,
 * U+017F and U+212A count as word characters, unlike in RE2. Only a folded backreference, which
 * cannot be spelled out, overrides that (accepting the difference for those two characters).
 */
export function decideCaseless(root: RegexNode, requested: boolean, source: string): boolean {
  const nodes = flatten(root);
  const folds = requested || nodes.some((n) => (n.kind === 'literal' || n.kind === 'class' || n.kind === 'backref') && n.fold);
  const foldedBackref = nodes.some((n) => n.kind === 'backref' && n.fold);
  const wordBoundary = nodes.some((n) => n.kind === 'assert' && (n.assert === 'wordBoundary' || n.assert === 'notWordBoundary'));
  const caseless = folds && !nodes.some(isCaseSensitive) && (!wordBoundary || foldedBackref);
  if (!caseless && foldedBackref) {
    throw createError('PATTERN_UNSUPPORTED', `regexp: a backreference inside (?i) cannot be mixed with case-sensitive parts in /${source}/`);
  }
  return caseless;
}

/** A node that pattern-wide folding would change. */
function isCaseSensitive(node: RegexNode): boolean {
  switch (node.kind) {
    case 'literal':
      return !node.fold && hasCaseVariants(node.cp);
    case 'class':
      return !node.fold && !isFoldClosed(node.set, node.props);
    case 'backref':
      return !node.fold;
    default:
      return false;
  }
}

function flatten(root: RegexNode): RegexNode[] {
  const out: RegexNode[] = [];
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    out.push(node);
    if (node.kind === 'concat' || node.kind === 'alt') for (const item of node.items) stack.push(item);
    else if (node.kind === 'group' || node.kind === 'repeat' || node.kind === 'look') stack.push(node.body);
  }
  return out;
}
