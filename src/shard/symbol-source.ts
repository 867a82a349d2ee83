/**
 * A shard source's symbol tables as the symbol searcher reads them: stored tables and the
 * definition-name index of an index segment, or tree-sitter parses for documents outside the index
 * (the parser is injected by the worker, so nothing here loads a grammar).
 */
import { SYMBOLS_OK } from '../index/format.js';
import type { SegmentSource } from '../index/store.js';
import type { FileSymbols } from '../model/symbols.js';
import { decodeFileSymbols } from '../symbols/codec.js';

/** What an index segment built with symbols offers (lmdb/segment-reader.ts provides it). */
export interface StoredSymbolTables {
  symbolStatus(): Uint8Array | null;
  symbols(doc: number): Uint8Array | null;
  docsDefining(name: string): Uint32Array;
  definedNames(): string[];
}

export type ParseSymbols = (path: string, content: Uint8Array) => FileSymbols | null;

export interface ShardSymbols {
  /** The definition-name index (non-local definitions), or null when the source has none. */
  readonly names: { all(): readonly string[]; docs(name: string): Uint32Array } | null;
  /** True when of() reads stored tables; false when it parses (costly: callers narrow first). */
  readonly stored: boolean;
  /** Whether the document has a stored table (always true when tables are parsed: unknown until then). */
  hasTable(doc: number): boolean;
  /** The document's table, or null (unsupported language, failed parse). */
  of(doc: number): FileSymbols | null;
}

// Segments are immutable, so a reader's name list stays valid for the reader's lifetime.
const nameLists = new WeakMap<StoredSymbolTables, readonly string[]>();

export function shardSymbols(source: SegmentSource, parse: ParseSymbols): ShardSymbols {
  const tables = storedTables(source);
  if (!tables) {
    return { names: null, stored: false, hasTable: () => true, of: (doc) => parse(source.path(doc), source.content(doc)) };
  }
  const status = tables.symbolStatus()!;
  return {
    names: {
      all() {
        let names = nameLists.get(tables);
        if (!names) nameLists.set(tables, (names = tables.definedNames()));
        return names;
      },
      docs: (name) => tables.docsDefining(name),
    },
    stored: true,
    hasTable: (doc) => status[doc] === SYMBOLS_OK,
    of(doc) {
      const bytes = tables.symbols(doc);
      return bytes ? decodeFileSymbols(bytes) : null;
    },
  };
}

function storedTables(source: SegmentSource): StoredSymbolTables | null {
  const candidate = source as Partial<StoredSymbolTables>;
  if (typeof candidate.symbolStatus !== 'function' || typeof candidate.definedNames !== 'function') return null;
  return candidate.symbolStatus() ? (candidate as StoredSymbolTables) : null;
}

const LOCAL_SCOPES = new Set(['function', 'method', 'constructor']);

/** Definitions inside a function body are locals (the rule of symbols/batch.ts's name index): true per definition. */
export function localDefinitions(table: FileSymbols): Uint8Array {
  const local = new Uint8Array(table.definitions.length);
  table.definitions.forEach((d, i) => {
    const parent = d.parent >= 0 ? table.definitions[d.parent]! : null;
    local[i] = parent && (local[d.parent] === 1 || LOCAL_SCOPES.has(parent.kind)) ? 1 : 0;
  });
  return local;
}
