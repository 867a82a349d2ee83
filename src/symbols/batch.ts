/**
 * Symbol extraction for one index batch, inside an index worker: per doc a status, the encoded
 * FileSymbols, and the names the segment's name indexes need. Only numbers, bytes and strings out.
 */
import type { FileSymbols } from '../model/symbols.js';
import { SYMBOLS_FAILED, SYMBOLS_OK, SYMBOLS_SKIPPED, SYMBOLS_UNSUPPORTED } from '../index/format.js';
import { encodeFileSymbols } from './codec.js';
import { parseFileSymbols, type SymbolOutcome } from './parse.js';

export interface SymbolBatch {
  /** SYMBOLS_* per doc. */
  readonly status: Uint8Array;
  /** Encodings of the docs with SYMBOLS_OK, concatenated; `ends[i]` closes doc i's (equal to the previous end when none). */
  readonly data: Uint8Array;
  readonly ends: Uint32Array;
  /** Per doc, distinct names of its non-local definitions, joined by "\n". */
  readonly defined: string[];
  /** Per doc, distinct referenced identifiers, joined by "\n". */
  readonly referenced: string[];
}

const STATUS: Record<SymbolOutcome['status'], number> = { ok: SYMBOLS_OK, unsupported: SYMBOLS_UNSUPPORTED, skipped: SYMBOLS_SKIPPED, failed: SYMBOLS_FAILED };
const LOCAL_SCOPES = new Set(['function', 'method', 'constructor']);

export function extractBatch(paths: readonly string[], docs: readonly Uint8Array[]): SymbolBatch {
  const status = new Uint8Array(docs.length);
  const ends = new Uint32Array(docs.length);
  const encoded: Uint8Array[] = [];
  const defined: string[] = [];
  const referenced: string[] = [];
  let size = 0;
  docs.forEach((content, i) => {
    const outcome = parseFileSymbols(paths[i]!, content);
    status[i] = STATUS[outcome.status];
    if (outcome.status === 'ok') {
      const bytes = encodeFileSymbols(outcome.symbols);
      encoded.push(bytes);
      size += bytes.length;
      defined.push(definedNames(outcome.symbols));
      referenced.push([...new Set(outcome.symbols.references.map((r) => r.name))].join('\n'));
    } else {
      defined.push('');
      referenced.push('');
    }
    ends[i] = size;
  });
  const data = new Uint8Array(size);
  let pos = 0;
  for (const bytes of encoded) {
    data.set(bytes, pos);
    pos += bytes.length;
  }
  return { status, data, ends, defined, referenced };
}

/** Definitions inside a function body are locals: resolved from the file itself, never looked up by name. */
function definedNames(symbols: FileSymbols): string {
  const local = new Uint8Array(symbols.definitions.length);
  const names = new Set<string>();
  symbols.definitions.forEach((d, i) => {
    const parent = d.parent >= 0 ? symbols.definitions[d.parent]! : null;
    local[i] = parent && (local[d.parent] === 1 || LOCAL_SCOPES.has(parent.kind)) ? 1 : 0;
    if (local[i] === 0) names.add(d.name);
  });
  return [...names].join('\n');
}
