/**
 * An in-memory SymbolIndex over hand-written FileSymbols, and terse builders for them, so that
 * navigation's resolution rules are tested without tree-sitter. Lines are given 1-based, as people read them.
 */
import { referenceGroupOf, type FileSymbols, type ReferenceGroup, type SourceRange, type SymbolDefinition, type SymbolFileRef, type SymbolImport, type SymbolIndex, type SymbolKind, type SymbolReference } from '../../src/model/symbols.js';

export interface FakeFile {
  readonly repo: string;
  readonly path: string;
  readonly commit?: string;
  readonly symbols: FileSymbols;
}

export const FAKE_COMMIT = 'c'.repeat(40);

export function createFakeSymbolIndex(files: readonly FakeFile[], parse: SymbolIndex['parse'] = async () => null): SymbolIndex {
  const byKey = new Map(files.map((f) => [`${f.repo}\0${f.path}`, f]));
  const refsWhere = (canRead: (repo: string) => boolean, keep: (s: FileSymbols) => boolean): SymbolFileRef[] =>
    files.filter((f) => canRead(f.repo) && keep(f.symbols)).map((f) => ({ repo: f.repo, commit: f.commit ?? FAKE_COMMIT, path: f.path }));
  return {
    fileSymbols: (repo, path) => byKey.get(`${repo}\0${path}`)?.symbols ?? null,
    filesDefining: (name, canRead) => refsWhere(canRead, (s) => s.definitions.some((d) => d.name === name)),
    referenceGroups: (name, canRead) => files.filter((f) => canRead(f.repo))
      .map((f) => referenceGroupOf({ repo: f.repo, commit: f.commit ?? FAKE_COMMIT, path: f.path }, f.symbols, name))
      .filter((g): g is ReferenceGroup => g !== null),
    parse,
  };
}

/** A one-line range at a 1-based line. */
export function at(line: number, column = 0, length = 1): SourceRange {
  return { startLine: line - 1, startColumn: column, endLine: line - 1, endColumn: column + length };
}

export interface DefOptions {
  readonly parent?: number;
  readonly exported?: boolean;
  /** Last line (1-based) of the whole definition; the name's line when omitted. */
  readonly end?: number;
  readonly column?: number;
}

export function def(name: string, kind: SymbolKind, line: number, options: DefOptions = {}): SymbolDefinition {
  const nameRange = at(line, options.column ?? 0, name.length);
  const range = { startLine: line - 1, startColumn: 0, endLine: (options.end ?? line) - 1, endColumn: 1 };
  return { name, kind, parent: options.parent ?? -1, nameRange, range, exported: options.exported ?? false };
}

export function ref(name: string, line: number, scope = -1, receiver?: string, column = 4): SymbolReference {
  const base = { name, range: at(line, column, name.length), scope };
  return receiver === undefined ? base : { ...base, receiver };
}

export function imp(localName: string, importedName: string, source: string, line: number): SymbolImport {
  return { localName, importedName, source, range: at(line) };
}

export function symbols(language: string, definitions: SymbolDefinition[], references: SymbolReference[] = [], imports: SymbolImport[] = []): FileSymbols {
  return { language, definitions, references, imports };
}
