/**
 * The comparisons graphql-js's OverlappingFieldsCanBeMerged rule makes, counted on the expansion:
 * pairs of fields sharing a response key in one merged selection set (fragments and inline
 * fragments merged in, the sub-selections of same-key fields merged in turn), plus pairs of
 * fragments spread into one selection set. The rule is quadratic in both and each field pair
 * prints both fields' arguments. Run only on a valid document whose expanded size is bounded.
 */
import { Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { fragmentsOf, operationsOf } from './query-shape.js';

/** Counts pairs over every operation, stopping as soon as the count passes `stopAbove`. */
export function countMergeComparisons(document: DocumentNode, stopAbove: number): number {
  const fragments = fragmentsOf(document);
  let pairs = 0;
  const walk = (sets: readonly SelectionSetNode[]): void => {
    const byKey = new Map<string, FieldNode[]>();
    const spread = new Set<string>();
    for (const set of sets) collectFields(set, fragments, byKey, spread);
    pairs += (spread.size * (spread.size - 1)) / 2;
    for (const fields of byKey.values()) {
      pairs += (fields.length * (fields.length - 1)) / 2;
      if (pairs > stopAbove) return;
      const children = fields.flatMap((f) => (f.selectionSet ? [f.selectionSet] : []));
      if (children.length > 0) walk(children);
      if (pairs > stopAbove) return;
    }
  };
  for (const operation of operationsOf(document)) {
    walk([operation.selectionSet]);
    if (pairs > stopAbove) break;
  }
  return pairs;
}

/** graphql-js collects a fragment once per selection set however often it is spread there. */
function collectFields(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, byKey: Map<string, FieldNode[]>, spread: Set<string>): void {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const group = byKey.get(key);
      if (group) group.push(selection);
      else byKey.set(key, [selection]);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      collectFields(selection.selectionSet, fragments, byKey, spread);
    } else if (!spread.has(selection.name.value)) {
      spread.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) collectFields(fragment.selectionSet, fragments, byKey, spread);
    }
  }
}
