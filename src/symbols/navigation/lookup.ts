/**
 * One navigation call's view of the symbol index: readable repositories only, each name's files and
 * each file's tables fetched once, and files parsed on demand (another revision) taking precedence.
 */
import { namedReferencesOf, type FileSymbols, type NamedReferences, type SymbolFileRef, type SymbolIndex } from '../../model/symbols.js';
import type { NavFile } from './model.js';
import { FileSymbolsCache } from './symbol-cache.js';

export class SymbolLookup {
  private readonly defining = new Map<string, readonly SymbolFileRef[]>();
  private readonly referencing = new Map<string, readonly SymbolFileRef[]>();
  private readonly files = new Map<string, NavFile | null>();
  private readonly overrides: readonly NavFile[];

  /** `cache` outlives the call (decoding a file's tables costs more than resolving in it); `overrides` are files parsed on demand. */
  constructor(
    private readonly index: SymbolIndex,
    readonly canRead: (repo: string) => boolean,
    overrides: readonly NavFile[] = [],
    private readonly cache = new FileSymbolsCache(0),
  ) {
    this.overrides = overrides;
    for (const file of overrides) this.files.set(fileKey(file.repo, file.path), file);
  }

  /** Files defining `name`; a file parsed on demand replaces the index's version of it. */
  filesDefining(name: string): readonly SymbolFileRef[] {
    let refs = this.defining.get(name);
    if (refs === undefined) {
      refs = this.withOverrides(this.index.filesDefining(name, this.canRead), (f) => f.symbols.definitions.some((d) => d.name === name));
      this.defining.set(name, refs);
    }
    return refs;
  }

  filesReferencing(name: string): readonly SymbolFileRef[] {
    let refs = this.referencing.get(name);
    if (refs === undefined) {
      refs = this.withOverrides(this.index.filesReferencing(name, this.canRead), (f) => f.symbols.references.some((r) => r.name === name));
      this.referencing.set(name, refs);
    }
    return refs;
  }

  file(ref: SymbolFileRef): NavFile | null {
    const key = fileKey(ref.repo, ref.path);
    let file = this.files.get(key);
    if (file === undefined) {
      const symbols: FileSymbols | null = this.canRead(ref.repo) ? this.cache.get(ref.repo, ref.commit, ref.path, () => this.index.fileSymbols(ref.repo, ref.path)) : null;
      file = symbols === null ? null : { repo: ref.repo, commit: ref.commit, path: ref.path, symbols };
      this.files.set(key, file);
    }
    return file;
  }

  /** The file's references named `name` alone: what find_references reads from every referencing file. */
  namedReferences(ref: SymbolFileRef, name: string): NamedReferences | null {
    const known = this.files.get(fileKey(ref.repo, ref.path));
    if (known !== undefined) return known === null ? null : namedReferencesOf(known.symbols, name);
    return this.canRead(ref.repo) ? this.index.namedReferences(ref.repo, ref.path, name) : null;
  }

  private withOverrides(refs: readonly SymbolFileRef[], has: (file: NavFile) => boolean): readonly SymbolFileRef[] {
    if (this.overrides.length === 0) return refs;
    const replaced = new Set(this.overrides.map((f) => fileKey(f.repo, f.path)));
    const out: SymbolFileRef[] = this.overrides.filter(has).map((f) => ({ repo: f.repo, commit: f.commit, path: f.path }));
    for (const ref of refs) if (!replaced.has(fileKey(ref.repo, ref.path))) out.push(ref);
    return out;
  }
}

function fileKey(repo: string, path: string): string {
  return `${repo}\0${path}`;
}
