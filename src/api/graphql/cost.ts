/**
 * Query cost, measured on the parsed document before validation, compilation or execution and
 * compared with the site config's `rateLimits.graphQL*` limits (reference §3.2). Pure: no schema
 * or resolver access; linear in the document's text however its fragments expand.
 *
 * - depth: deepest field nesting (fragments expanded; a top-level field has depth 1).
 * - aliases: fields written with an alias.
 * - fields: estimated fields resolved: each field counts its parent's multiplier; a field with a
 *   `first` argument (literal or variable) multiplies its children by that number, others by 1.
 * - duplicates: fields repeating a response key already selected in the same selection set
 *   (fields that fragments contribute to that selection set included).
 * - uniqueFields: distinct field names in the document.
 */
import { Kind, type ArgumentNode, type DocumentNode, type SelectionSetNode } from 'graphql';
import { fragmentsOf, selectOperation, shapeDocument, type DocumentShape, type OperationShape } from './query-shape.js';

export interface QueryCost {
  depth: number;
  aliases: number;
  fields: number;
  duplicates: number;
  uniqueFields: number;
}

export interface CostLimits {
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxFieldCount: number;
  readonly maxDuplicateFieldCount: number;
  readonly maxUniqueFieldCount: number;
  /** Quarry's own: fields, fragment spreads and inline fragments of all operations, fragments expanded. */
  readonly maxExpandedSelections: number;
  /** Quarry's own: searches one request may start. */
  readonly maxSearches: number;
}

/** Sourcegraph's documented defaults, and Quarry's for the two limits Sourcegraph lacks. */
export const DEFAULT_COST_LIMITS: CostLimits = Object.freeze({
  maxDepth: 30, maxAliases: 500, maxFieldCount: 500_000, maxDuplicateFieldCount: 500, maxUniqueFieldCount: 500,
  maxExpandedSelections: 1000, maxSearches: 5,
});

export const QUERY_COST_EXCEEDED = 'query exceeds maximum query cost';

function multiplierOf(args: readonly ArgumentNode[] | undefined, variables: Readonly<Record<string, unknown>>): number {
  const first = args?.find((a) => a.name.value === 'first')?.value;
  if (!first) return 1;
  const value = first.kind === Kind.INT ? Number(first.value) : first.kind === Kind.VARIABLE ? variables[first.name.value] : null;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 1;
}

/** The multiplied field count of the operation, each fragment counted once per request (memoised). */
export function countFields(document: DocumentNode, operationName: string | null, variables: Readonly<Record<string, unknown>>): number {
  const fragments = fragmentsOf(document);
  const memo = new Map<string, number>();
  const unitCount = (set: SelectionSetNode): number => {
    let count = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        count += 1 + (selection.selectionSet ? multiplierOf(selection.arguments, variables) * unitCount(selection.selectionSet) : 0);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        count += unitCount(selection.selectionSet);
      } else {
        count += fragmentCount(selection.name.value);
      }
    }
    return count;
  };
  const fragmentCount = (name: string): number => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (!fragment) return 0;
    // A cycle contributes nothing where it closes; validation refuses it afterwards.
    memo.set(name, 0);
    const count = unitCount(fragment.selectionSet);
    memo.set(name, count);
    return count;
  };
  const operation = selectOperation(document, operationName);
  return operation ? unitCount(operation.selectionSet) : 0;
}

export function costOf(shape: OperationShape, fields: number): QueryCost {
  return { depth: shape.depth, aliases: shape.aliases, fields, duplicates: shape.duplicates, uniqueFields: shape.uniqueFields };
}

export function measureQueryCost(document: DocumentNode, operationName: string | null, variables: Readonly<Record<string, unknown>> = {}): QueryCost {
  const { operation } = shapeDocument(document, operationName);
  if (!operation) return { depth: 0, aliases: 0, fields: 0, duplicates: 0, uniqueFields: 0 };
  return costOf(operation, countFields(document, operationName, variables));
}

export function exceedsLimits(cost: QueryCost, limits: CostLimits): boolean {
  return cost.depth > limits.maxDepth || cost.aliases > limits.maxAliases || cost.fields > limits.maxFieldCount
    || cost.duplicates > limits.maxDuplicateFieldCount || cost.uniqueFields > limits.maxUniqueFieldCount;
}

/** A parsed document's cost, measured once and cached with it; `fields` is null when it depends on variables. */
export interface MeasuredDocument {
  readonly document: DocumentNode;
  readonly operationName: string | null;
  readonly shape: DocumentShape;
  readonly fields: number | null;
}

export function measureDocument(document: DocumentNode, operationName: string | null): MeasuredDocument {
  const shape = shapeDocument(document, operationName);
  const fields = shape.operation && !shape.operation.variableFirst ? countFields(document, operationName, {}) : null;
  return { document, operationName, shape, fields };
}

/** Sourcegraph's limits, on the selected operation; the field count is recomputed when variables set `first`. */
export function exceedsCost(measured: MeasuredDocument, variables: Readonly<Record<string, unknown>>, limits: CostLimits): boolean {
  const operation = measured.shape.operation;
  if (!operation) return false;
  return exceedsLimits(costOf(operation, measured.fields ?? countFields(measured.document, measured.operationName, variables)), limits);
}

/** Checked before validation, which reads every operation with its fragments, expanded. */
export function expansionRefusal(measured: MeasuredDocument, limits: CostLimits): string | null {
  if (measured.shape.expandedSelections <= limits.maxExpandedSelections) return null;
  return `${QUERY_COST_EXCEEDED}: its operations expand to more than ${limits.maxExpandedSelections} fields and fragments (site setting rateLimits.graphQLMaxExpandedSelections)`;
}

export function searchRefusal(measured: MeasuredDocument, limits: CostLimits): string | null {
  const searches = measured.shape.operation?.searches ?? 0;
  if (searches <= limits.maxSearches) return null;
  return `${QUERY_COST_EXCEEDED}: it starts ${searches} searches, at most ${limits.maxSearches} per request (site setting rateLimits.graphQLMaxSearches); send them in separate requests`;
}
