/**
 * Symbol tables as the index stores them and code navigation reads them: per file, definitions,
 * references and imports found by tree-sitter. Plain data; positions are 0-based, columns count
 * UTF-16 code units of the line (what JavaScript strings index).
 */

export type SymbolKind =
  | 'function' | 'method' | 'class' | 'interface' | 'type' | 'enum' | 'variable' | 'constant'
  | 'field' | 'property' | 'module' | 'namespace' | 'macro' | 'constructor' | 'enumMember';

export interface SourceRange {
  readonly startLine: number;
  readonly startColumn: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface SymbolDefinition {
  readonly name: string;
  readonly kind: SymbolKind;
  /** The enclosing definition's index in the same file's `definitions`, or -1 at file level. */
  readonly parent: number;
  /** The name's own range (what a usage resolves to). */
  readonly nameRange: SourceRange;
  /** The whole definition (body included), for snippets. */
  readonly range: SourceRange;
  /** Visible outside its file (export, pub, public, capitalised Go name, non-static C …). */
  readonly exported: boolean;
}

export interface SymbolReference {
  readonly name: string;
  readonly range: SourceRange;
  /** The innermost definition enclosing the reference, or -1 at file level. */
  readonly scope: number;
  /** `a.b`: the reference is a member access (`b` here); its receiver's text is kept when simple. */
  readonly receiver?: string;
}

export interface SymbolImport {
  /** The local name the import binds (`x` in `import { y as x }`), or '*' for namespace/wildcard imports without a binding. */
  readonly localName: string;
  /** The name in the source module (`y` above); equals localName when not renamed. */
  readonly importedName: string;
  /** The module or file as written (`./util`, `github.com/x/y`, `os.path`, `"foo.h"`). */
  readonly source: string;
  readonly range: SourceRange;
}

export interface FileSymbols {
  /** Language id as the query language names it (`typescript`, `go`, …). */
  readonly language: string;
  readonly definitions: readonly SymbolDefinition[];
  readonly references: readonly SymbolReference[];
  readonly imports: readonly SymbolImport[];
}

/** One name's references in a file, with what resolving them needs when the file does not define the name. */
export interface NamedReferences {
  readonly language: string;
  /** Some definition of the file (at any depth) has the name: its references need the file's scopes. */
  readonly definesName: boolean;
  readonly references: readonly SymbolReference[];
  readonly imports: readonly SymbolImport[];
}

/** NamedReferences out of whole tables (files parsed on demand, tests). */
export function namedReferencesOf(symbols: FileSymbols, name: string): NamedReferences | null {
  const references = symbols.references.filter((r) => r.name === name);
  if (references.length === 0) return null;
  return { language: symbols.language, definesName: symbols.definitions.some((d) => d.name === name), references, imports: symbols.imports };
}

/** A file of an indexed repository at its indexed commit. */
export interface SymbolFileRef {
  readonly repo: string;
  readonly commit: string;
  readonly path: string;
}

/**
 * The symbol tables of every indexed repository, as code navigation reads them (implemented over
 * the index segments; a fake in tests). Only repositories `canRead` allows are ever returned.
 */
export interface SymbolIndex {
  /** The file's symbols at the repository's indexed commit; null when not indexed or not a supported language. */
  fileSymbols(repo: string, path: string): FileSymbols | null;
  /** Files that define a symbol with exactly this name. */
  filesDefining(name: string, canRead: (repo: string) => boolean): readonly SymbolFileRef[];
  /** Files that reference (use) an identifier with exactly this name. */
  filesReferencing(name: string, canRead: (repo: string) => boolean): readonly SymbolFileRef[];
  /** The file's references named `name`, read without decoding its whole tables; null when none or not indexed. */
  namedReferences(repo: string, path: string, name: string): NamedReferences | null;
  /** Parses a file that is not in the index (another revision), off the main thread; null when unsupported. */
  parse(path: string, content: Uint8Array): Promise<FileSymbols | null>;
}
