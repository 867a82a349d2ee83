/**
 * A SymbolIndex over source text parsed by the real extraction (symbols/parse.ts), for tests that
 * need real symbol tables without building an LMDB index.
 */
import type { FileSymbols, SymbolIndex } from '../../../src/model/symbols.js';
import { parseFileSymbols } from '../../../src/symbols/parse.js';
import { createFakeSymbolIndex, FAKE_COMMIT } from '../fake-symbol-index.js';

export interface SourceFile {
  readonly repo: string;
  readonly path: string;
  readonly content: string;
  readonly commit?: string;
}

export function parseSymbols(path: string, content: string | Uint8Array): FileSymbols | null {
  const outcome = parseFileSymbols(path, content);
  return outcome.status === 'ok' ? outcome.symbols : null;
}

export function createParsedSymbolIndex(files: readonly SourceFile[]): SymbolIndex {
  const parsed = files.flatMap((f) => {
    const symbols = parseSymbols(f.path, f.content);
    if (symbols === null) return [];
    return [{ repo: f.repo, path: f.path, commit: f.commit ?? FAKE_COMMIT, symbols }];
  });
  return createFakeSymbolIndex(parsed, async (path, content) => parseSymbols(path, content));
}
