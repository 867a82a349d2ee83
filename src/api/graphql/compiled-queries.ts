/**
 * Parsed, validated and graphql-jit-compiled queries, cached by document text and operation name
 * in a bounded LRU, so a repeated query skips parse, validate and compile. The text itself is the
 * key: a Map hashes it faster than a cryptographic digest would, and entries are few.
 */
import { GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

export type PreparedQuery =
  | { readonly ok: true; readonly document: DocumentNode; readonly compiled: CompiledQuery }
  | { readonly ok: false; readonly errors: readonly GraphQLError[] };

export interface CompiledQueryCache {
  prepare(query: string, operationName: string | null): PreparedQuery;
  readonly hits: number;
  readonly misses: number;
  readonly size: number;
}

export const DEFAULT_CACHE_ENTRIES = 500;

function prepareUncached(schema: GraphQLSchema, query: string, operationName: string | null): PreparedQuery {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (err) {
    if (err instanceof GraphQLError) return { ok: false, errors: [err] };
    throw err;
  }
  const errors = validate(schema, document);
  if (errors.length > 0) return { ok: false, errors };
  const compiled = compileQuery(schema, document, operationName ?? undefined);
  if (!isCompiledQuery(compiled)) return { ok: false, errors: compiled.errors ?? [] };
  return { ok: true, document, compiled };
}

/** Invalid documents are cached too: a client retrying a bad query costs one lookup. */
export function createCompiledQueryCache(schema: GraphQLSchema, maxEntries = DEFAULT_CACHE_ENTRIES): CompiledQueryCache {
  const entries = new Map<string, PreparedQuery>();
  let hits = 0;
  let misses = 0;
  return {
    prepare(query, operationName) {
      const key = `${operationName ?? ''}\0${query}`;
      const cached = entries.get(key);
      if (cached) {
        hits++;
        entries.delete(key);
        entries.set(key, cached);
        return cached;
      }
      misses++;
      const prepared = prepareUncached(schema, query, operationName);
      entries.set(key, prepared);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return prepared;
    },
    get hits() { return hits; },
    get misses() { return misses; },
    get size() { return entries.size; },
  };
}
