/**
 * Prepared queries, cached by document text and operation name in an LRU bounded by entry count
 * and by weight (tokens and length: a parsed 10,000-token document holds about 5 MB), so a
 * repeated query costs one lookup. Preparing does only linear work: size check, parse and cost
 * measurement. Validation and compilation wait in `validate()` and `compile()`, each run once
 * per entry, until the caller has checked the limits they depend on. graphql-jit compiles the
 * operations real clients send; larger ones run on graphql-js's executor, which compiles nothing.
 */
import { execute, GraphQLError, OverlappingFieldsCanBeMergedRule, parse, specifiedRules, validate, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { measureDocument, QUERY_COST_EXCEEDED, type MeasuredDocument } from './cost.js';
import { checkDocumentSize, MAX_QUERY_TOKENS } from './document-size.js';
import { countMergeComparisons } from './merge-comparisons.js';
import type { GraphQLContext } from './services.js';

/** Runs the prepared operation for one request. */
export type QueryRunner = (context: GraphQLContext, variables: Readonly<Record<string, unknown>>) => Promise<ExecutionResult>;

export type CompileOutcome =
  | { readonly kind: 'compiled'; readonly run: QueryRunner; readonly engine: 'graphql-jit' | 'graphql-js' }
  | { readonly kind: 'invalid'; readonly errors: readonly GraphQLError[] }
  | { readonly kind: 'refused'; readonly message: string };

export type PreparedQuery =
  /** Over a size bound of the text: never parsed. */
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'invalid'; readonly errors: readonly GraphQLError[] }
  | {
    readonly kind: 'measured';
    readonly measured: MeasuredDocument;
    /** Every rule but the overlap rule: linear in the expanded document, so call it once the expansion is within its limit. */
    validate(): readonly GraphQLError[];
    /** The overlap rule, bounded first by counting its comparisons, then the compile: call it once the cost is within the limits. */
    compile(): CompileOutcome;
  };

export interface CompiledQueryCache {
  prepare(query: string, operationName: string | null): PreparedQuery;
  readonly hits: number;
  readonly misses: number;
  readonly size: number;
}

export const DEFAULT_CACHE_ENTRIES = 500;
/** In tokens (plus a token per 256 characters): at most about 100 MB of parsed documents. */
export const MAX_CACHE_WEIGHT = 200_000;
/**
 * graphql-js's overlap rule costs about 15 µs per comparison when fields carry arguments (about
 * 1 µs without): a thousand stay within tens of milliseconds. Real documents make a few.
 */
export const MAX_MERGE_COMPARISONS = 1000;
/**
 * graphql-jit's compile costs about 0.1 ms per expanded selection, paid again for every new
 * document; the full introspection query has 239. Larger operations are not worth compiling.
 */
export const MAX_JIT_SELECTIONS = 300;

const LINEAR_RULES = specifiedRules.filter((rule) => rule !== OverlappingFieldsCanBeMergedRule);

function compileMeasured(schema: GraphQLSchema, measured: MeasuredDocument): CompileOutcome {
  if (countMergeComparisons(measured.document, MAX_MERGE_COMPARISONS) > MAX_MERGE_COMPARISONS) {
    return { kind: 'refused', message: `${QUERY_COST_EXCEEDED}: merging its repeated fields and fragments takes more than ${MAX_MERGE_COMPARISONS} comparisons; repeat them less` };
  }
  const errors = validate(schema, measured.document, [OverlappingFieldsCanBeMergedRule]);
  if (errors.length > 0) return { kind: 'invalid', errors };
  const { document, operationName, shape } = measured;
  if ((shape.operation?.selections ?? 0) > MAX_JIT_SELECTIONS) {
    const run: QueryRunner = async (context, variables) => execute({ schema, document, operationName, contextValue: context, variableValues: variables });
    return { kind: 'compiled', run, engine: 'graphql-js' };
  }
  const compiled = compileQuery(schema, document, operationName ?? undefined);
  if (!isCompiledQuery(compiled)) return { kind: 'invalid', errors: compiled.errors ?? [] };
  const run: QueryRunner = async (context, variables) => compiled.query(undefined, context, variables);
  return { kind: 'compiled', run, engine: 'graphql-jit' };
}

function prepareUncached(schema: GraphQLSchema, query: string, operationName: string | null): { prepared: PreparedQuery; tokens: number } {
  const size = checkDocumentSize(query);
  if (!size.ok) return { prepared: 'refusal' in size ? { kind: 'refused', message: size.refusal } : { kind: 'invalid', errors: [size.syntax] }, tokens: 0 };
  let document;
  try {
    document = parse(query, { maxTokens: MAX_QUERY_TOKENS });
  } catch (err) {
    if (err instanceof GraphQLError) return { prepared: { kind: 'invalid', errors: [err] }, tokens: size.tokens };
    throw err;
  }
  const measured = measureDocument(document, operationName);
  let errors: readonly GraphQLError[] | undefined;
  let outcome: CompileOutcome | undefined;
  const prepared: PreparedQuery = {
    kind: 'measured',
    measured,
    validate: () => (errors ??= validate(schema, measured.document, LINEAR_RULES)),
    compile: () => (outcome ??= compileMeasured(schema, measured)),
  };
  return { prepared, tokens: size.tokens };
}

/** Invalid and refused documents are cached too: a client retrying a bad query costs one lookup. */
export function createCompiledQueryCache(schema: GraphQLSchema, maxEntries = DEFAULT_CACHE_ENTRIES, maxWeight = MAX_CACHE_WEIGHT): CompiledQueryCache {
  const entries = new Map<string, { readonly prepared: PreparedQuery; readonly weight: number }>();
  let weight = 0;
  let hits = 0;
  let misses = 0;
  let newest = '';
  return {
    prepare(query, operationName) {
      const key = `${operationName ?? ''}\0${query}`;
      const cached = entries.get(key);
      if (cached) {
        hits++;
        // Least recently used goes first; a client repeating one query needs no move each time.
        if (key !== newest) {
          entries.delete(key);
          entries.set(key, cached);
          newest = key;
        }
        return cached.prepared;
      }
      misses++;
      const { prepared, tokens } = prepareUncached(schema, query, operationName);
      const entry = { prepared, weight: tokens + Math.ceil(key.length / 256) };
      entries.set(key, entry);
      newest = key;
      weight += entry.weight;
      for (const [oldest, old] of entries) {
        if (entries.size <= maxEntries && weight <= maxWeight) break;
        entries.delete(oldest);
        weight -= old.weight;
      }
      return prepared;
    },
    get hits() { return hits; },
    get misses() { return misses; },
    get size() { return entries.size; },
  };
}
