/**
 * The shape of a parsed, not yet validated document, measured in one memoised pass: each fragment
 * is summarised once, so a spread costs a lookup however often it expands and a fragment bomb is
 * measured in time linear in its text. Unknown fragments count as empty and a fragment cycle is
 * cut where it closes (validation, which runs later, reports both). Pure: no schema, no resolvers.
 */
import { Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode, type ValueNode } from 'graphql';
import { NO_KEYS, ResponseKeys, type KeySet } from './response-keys.js';

/** What a selection set amounts to once its fragments are expanded. */
interface SelectionShape {
  /** Fields collected into this selection set itself, through spreads and inline fragments. */
  readonly collected: number;
  /** Their distinct response keys. */
  readonly keys: KeySet;
  /** Collected fields named `results`: under `search`, each one runs a search. */
  readonly results: number;
  readonly depth: number;
  /** Fields, fragment spreads and inline fragments below, at every level, without multipliers. */
  readonly selections: number;
  readonly aliases: number;
  /** Duplicates inside the selection sets of the collected fields. */
  readonly nestedDuplicates: number;
  readonly searches: number;
  /** A `first:` argument below is a variable, so the multiplied field count depends on the request. */
  readonly variableFirst: boolean;
}

/** The selected operation's measures, all over the expanded tree. */
export interface OperationShape {
  readonly depth: number;
  readonly aliases: number;
  readonly duplicates: number;
  readonly uniqueFields: number;
  /** Fields, fragment spreads and inline fragments, fragments expanded. */
  readonly selections: number;
  /** Searches the operation starts: one per `results` under each `search` field (at least one). */
  readonly searches: number;
  readonly variableFirst: boolean;
  /** A mutation writes, so its answer waits until the writes are committed (server/graphql.ts). */
  readonly mutation: boolean;
}

export interface DocumentShape {
  /** Null when no operation matches the requested name. */
  readonly operation: OperationShape | null;
  /**
   * Fields, fragment spreads and inline fragments of every operation, fragments expanded: the
   * work of validation (which reads every operation) and of graphql-jit's compile grows with it.
   */
  readonly expandedSelections: number;
}

const EMPTY: SelectionShape = Object.freeze({
  collected: 0, keys: NO_KEYS, results: 0, depth: 0, selections: 0, aliases: 0, nestedDuplicates: 0, searches: 0, variableFirst: false,
});

export function fragmentsOf(document: DocumentNode): ReadonlyMap<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION && !fragments.has(def.name.value)) fragments.set(def.name.value, def);
  return fragments;
}

export function operationsOf(document: DocumentNode): OperationDefinitionNode[] {
  return document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
}

/** graphql-js's choice: the named operation, or the first one when no name is given. */
export function selectOperation(document: DocumentNode, operationName: string | null): OperationDefinitionNode | undefined {
  return operationsOf(document).find((op) => operationName === null || op.name?.value === operationName);
}

function duplicatesOf(shape: SelectionShape): number {
  return shape.collected - shape.keys.size + shape.nestedDuplicates;
}

class ShapeReader {
  private readonly memo = new Map<string, SelectionShape | 'in progress'>();

  constructor(private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>, private readonly keys: ResponseKeys) {}

  fragment(name: string): SelectionShape {
    const known = this.memo.get(name);
    if (known === 'in progress') return EMPTY;
    if (known) return known;
    const definition = this.fragments.get(name);
    if (!definition) return EMPTY;
    this.memo.set(name, 'in progress');
    const shape = this.selectionSet(definition.selectionSet);
    this.memo.set(name, shape);
    return shape;
  }

  selectionSet(set: SelectionSetNode): SelectionShape {
    let collected = 0, results = 0, depth = 0, selections = 0, aliases = 0, nestedDuplicates = 0, searches = 0;
    let variableFirst = false;
    const own: number[] = [];
    const sources: KeySet[] = [];
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const child = selection.selectionSet ? this.selectionSet(selection.selectionSet) : EMPTY;
        const name = selection.name.value;
        collected++;
        own.push(this.keys.numberOf(selection.alias?.value ?? name));
        if (name === 'results') results++;
        if (name === 'search') searches += Math.max(1, child.results);
        if (selection.alias) aliases++;
        depth = Math.max(depth, 1 + child.depth);
        selections += 1 + child.selections;
        aliases += child.aliases;
        nestedDuplicates += duplicatesOf(child);
        searches += child.searches;
        variableFirst ||= child.variableFirst || firstArgument(selection)?.kind === Kind.VARIABLE;
        continue;
      }
      const part = selection.kind === Kind.INLINE_FRAGMENT ? this.selectionSet(selection.selectionSet) : this.fragment(selection.name.value);
      collected += part.collected;
      if (part.keys.size > 0) sources.push(part.keys);
      results += part.results;
      depth = Math.max(depth, part.depth);
      selections += 1 + part.selections;
      aliases += part.aliases;
      nestedDuplicates += part.nestedDuplicates;
      searches += part.searches;
      variableFirst ||= part.variableFirst;
    }
    return { collected, keys: this.keys.union(sources, own), results, depth, selections, aliases, nestedDuplicates, searches, variableFirst };
  }
}

function firstArgument(field: FieldNode): ValueNode | undefined {
  return field.arguments?.find((a) => a.name.value === 'first')?.value;
}

/** Distinct field names in the operation and the fragments it reaches, each fragment read once. */
function uniqueFieldNames(operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): number {
  const names = new Set<string>();
  const seen = new Set<string>();
  const pending: SelectionSetNode[] = [operation.selectionSet];
  for (let set = pending.pop(); set; set = pending.pop()) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        names.add(selection.name.value);
        if (selection.selectionSet) pending.push(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        pending.push(selection.selectionSet);
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) pending.push(fragment.selectionSet);
      }
    }
  }
  return names.size;
}

export function shapeDocument(document: DocumentNode, operationName: string | null): DocumentShape {
  const fragments = fragmentsOf(document);
  const reader = new ShapeReader(fragments, new ResponseKeys(document));
  const selected = selectOperation(document, operationName);
  let expandedSelections = 0;
  let shape: SelectionShape | null = null;
  for (const op of operationsOf(document)) {
    const opShape = reader.selectionSet(op.selectionSet);
    expandedSelections += opShape.selections;
    if (op === selected) shape = opShape;
  }
  if (!selected || !shape) return { operation: null, expandedSelections };
  return {
    operation: {
      depth: shape.depth,
      aliases: shape.aliases,
      duplicates: duplicatesOf(shape),
      uniqueFields: uniqueFieldNames(selected, fragments),
      selections: shape.selections,
      searches: shape.searches,
      variableFirst: shape.variableFirst,
      mutation: selected.operation === 'mutation',
    },
    expandedSelections,
  };
}
