/**
 * Query cost, measured on a validated document before execution and compared with the site
 * config's `rateLimits.graphQL*` limits (reference §3.2). Pure: no schema or resolver access.
 *
 * - depth: deepest field nesting (fragments expanded; a top-level field has depth 1).
 * - aliases: fields written with an alias.
 * - fields: estimated fields resolved: each field counts its parent's multiplier; a field with a
 *   `first` argument (literal or variable) multiplies its children by that number, others by 1.
 * - duplicates: fields repeating a response key already selected in the same selection set.
 * - uniqueFields: distinct field names in the document.
 */
import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode, type ValueNode } from 'graphql';

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
}

/** Sourcegraph's documented defaults. */
export const DEFAULT_COST_LIMITS: CostLimits = Object.freeze({
  maxDepth: 30, maxAliases: 500, maxFieldCount: 500_000, maxDuplicateFieldCount: 500, maxUniqueFieldCount: 500,
});

export const QUERY_COST_EXCEEDED = 'query exceeds maximum query cost';

// Fragment cycles are rejected by validation; this bound only guards against pathological nesting.
const MAX_WALK_DEPTH = 1000;

function multiplierOf(args: readonly { name: { value: string }; value: ValueNode }[] | undefined, variables: Readonly<Record<string, unknown>>): number {
  const first = args?.find((a) => a.name.value === 'first')?.value;
  if (!first) return 1;
  const value = first.kind === Kind.INT ? Number(first.value) : first.kind === Kind.VARIABLE ? variables[first.name.value] : null;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 1;
}

export function measureQueryCost(document: DocumentNode, operationName: string | null, variables: Readonly<Record<string, unknown>> = {}): QueryCost {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && (operationName === null || d.name?.value === operationName));
  const cost: QueryCost = { depth: 0, aliases: 0, fields: 0, duplicates: 0, uniqueFields: 0 };
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION) return cost;
  const names = new Set<string>();

  const walk = (set: SelectionSetNode, depth: number, multiplier: number): void => {
    if (depth > MAX_WALK_DEPTH) return;
    const keys = new Set<string>();
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (keys.has(key)) cost.duplicates++;
        keys.add(key);
        names.add(selection.name.value);
        if (selection.alias) cost.aliases++;
        cost.fields += multiplier;
        cost.depth = Math.max(cost.depth, depth);
        if (selection.selectionSet) walk(selection.selectionSet, depth + 1, multiplier * multiplierOf(selection.arguments, variables));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, depth, multiplier);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet, depth, multiplier);
      }
    }
  };
  walk(operation.selectionSet, 1, 1);
  cost.uniqueFields = names.size;
  return cost;
}

export function exceedsLimits(cost: QueryCost, limits: CostLimits): boolean {
  return cost.depth > limits.maxDepth || cost.aliases > limits.maxAliases || cost.fields > limits.maxFieldCount
    || cost.duplicates > limits.maxDuplicateFieldCount || cost.uniqueFields > limits.maxUniqueFieldCount;
}
