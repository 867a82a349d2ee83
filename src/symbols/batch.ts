/**
 * Symbol extraction for one index batch, inside an index worker: per doc a status, the encoded
 * FileSymbols, and the names the segment's name indexes need. Only numbers, bytes and strings out.
 */
import type { FileSymbols } from '../model/symbols.js';
import { packReferenceInfo, SYMBOLS_FAILED, SYMBOLS_OK, SYMBOLS_SKIPPED, SYMBOLS_UNSUPPORTED } from '../index/format.js';
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
  /** Per referenced identifier of `referenced`, in order, its packReferenceInfo. */
  readonly referenceInfo: Uint32Array;
  /** Per SYMBOLS_OK doc, the encoding of its language and imports alone; concatenated like `data`. */
  readonly importData: Uint8Array;
  readonly importEnds: Uint32Array;
}

const STATUS: Record<SymbolOutcome['status'], number> = { ok: SYMBOLS_OK, unsupported: SYMBOLS_UNSUPPORTED, skipped: SYMBOLS_SKIPPED, failed: SYMBOLS_FAILED };
const LOCAL_SCOPES = new Set(['function', 'method', 'constructor']);

export function extractBatch(paths: readonly string[], docs: readonly Uint8Array[]): SymbolBatch {
  const status = new Uint8Array(docs.length);
  const tables = new Concatenation(docs.length);
  const imports = new Concatenation(docs.length);
  const defined: string[] = [];
  const referenced: string[] = [];
  const referenceInfo: number[] = [];
  docs.forEach((content, i) => {
    const outcome = parseFileSymbols(paths[i]!, content);
    status[i] = STATUS[outcome.status];
    if (outcome.status === 'ok') {
      const { symbols } = outcome;
      tables.add(encodeFileSymbols(symbols));
      imports.add(encodeFileSymbols({ language: symbols.language, definitions: [], references: [], imports: symbols.imports }));
      defined.push(definedNames(symbols));
      const infos = referenceInfos(symbols);
      referenced.push([...infos.keys()].join('\n'));
      referenceInfo.push(...infos.values());
    } else {
      defined.push('');
      referenced.push('');
    }
    tables.close(i);
    imports.close(i);
  });
  return {
    status, data: tables.bytes(), ends: tables.ends, defined, referenced, referenceInfo: Uint32Array.from(referenceInfo),
    importData: imports.bytes(), importEnds: imports.ends,
  };
}

/** Per doc, at most one encoding, concatenated. */
class Concatenation {
  readonly ends: Uint32Array;
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  constructor(docs: number) {
    this.ends = new Uint32Array(docs);
  }

  add(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  close(doc: number): void {
    this.ends[doc] = this.size;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let pos = 0;
    for (const part of this.parts) {
      out.set(part, pos);
      pos += part.length;
    }
    return out;
  }
}

/** Per distinct referenced name, in first-use order, its packed ReferenceInfo. */
function referenceInfos(symbols: FileSymbols): Map<string, number> {
  const defined = new Set(symbols.definitions.map((d) => d.name));
  const seen = new Map<string, { count: number; hasReceiver: boolean }>();
  for (const r of symbols.references) {
    const info = seen.get(r.name);
    if (info === undefined) seen.set(r.name, { count: 1, hasReceiver: r.receiver !== undefined });
    else {
      info.count++;
      if (r.receiver !== undefined) info.hasReceiver = true;
    }
  }
  return new Map([...seen].map(([name, info]) => [name, packReferenceInfo({ ...info, definesName: defined.has(name) })]));
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
