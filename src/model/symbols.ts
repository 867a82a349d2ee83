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
  /**
   * The type the code declares for it, by name (`App` of `app: App`, `Route` of `r *Route`): of a
   * variable, parameter or field its type, of a Go method its receiver's type, of a class the class
   * it extends (of a Go struct the first type it embeds). A Python field assigned a name
   * (`self.app = app`) holds that name, whose own type it has. Absent when unwritten.
   */
  readonly type?: string;
}

export interface SymbolReference {
  readonly name: string;
  readonly range: SourceRange;
  /** The innermost definition enclosing the reference, or -1 at file level. */
  readonly scope: number;
  /** `a.b`: the reference is a member access (`b` here); its receiver's text is kept when simple. */
  readonly receiver?: string;
  /** The member is assigned (`a.b = …`): of an accessor pair the setter is meant, not the getter. */
  readonly assigned?: true;
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

/**
 * One file's references to a name, as an index scan yields them: counted and described without
 * building them, because find_references meets thousands of such files and shows ten.
 */
export interface ReferenceGroup {
  readonly file: SymbolFileRef;
  readonly language: string;
  /** Some definition of the file (at any depth) has the name: its references need the file's scopes. */
  readonly definesName: boolean;
  readonly count: number;
  /** The distinct receivers of the references (`x` of `x.name`), undefined for bare ones. */
  readonly receivers: readonly (string | undefined)[];
  /** The file's imports, less those the scan's ImportMentions rule out. */
  readonly imports: readonly SymbolImport[];
  /** The references themselves, read again from the index: call it for the few that are shown. */
  references(): readonly SymbolReference[];
}

/**
 * For a file's language and the receivers of its references, the strings an import must contain to
 * matter to them (C: the file names of the name's definitions, since an include reaches nothing
 * else); null when any import may matter. A scan builds only the imports one of whose strings
 * contains a mention, the ones that can change a resolution.
 * Called between reads of the index, so it must not read the index itself.
 */
export type ImportMentions = (language: string, receivers: readonly (string | undefined)[]) => readonly string[] | null;

/** A ReferenceGroup out of whole tables (files parsed on demand, tests). */
export function referenceGroupOf(file: SymbolFileRef, symbols: FileSymbols, name: string): ReferenceGroup | null {
  const references = symbols.references.filter((r) => r.name === name);
  if (references.length === 0) return null;
  return {
    file, language: symbols.language, definesName: symbols.definitions.some((d) => d.name === name), count: references.length,
    receivers: [...new Set(references.map((r) => r.receiver))], imports: symbols.imports, references: () => references,
  };
}

/**
 * A definition as the tools answer it (the evaluator's nav.definition, deep search's research):
 * where it is (1-based lines and column), at which commit, and up to 50 lines of its source.
 */
export interface DefinitionSite {
  readonly repo: string;
  readonly path: string;
  readonly commit: string;
  readonly name: string;
  readonly kind: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly text: string;
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
  /** Per file that references (uses) an identifier with exactly this name, those references. */
  referenceGroups(name: string, canRead: (repo: string) => boolean, mentions?: ImportMentions): readonly ReferenceGroup[];
  /** Parses a file that is not in the index (another revision), off the main thread; null when unsupported. */
  parse(path: string, content: Uint8Array): Promise<FileSymbols | null>;
}
