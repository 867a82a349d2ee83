/**
 * One navigation call's view of the symbol index: readable repositories only, each name's files and
 * each file's tables fetched once, and files parsed on demand (another revision) taking precedence.
 */
import { referenceGroupOf, type FileSymbols, type ImportMentions, type ReferenceGroup, type SymbolFileRef, type SymbolIndex } from '../../model/symbols.js';
import type { NavFile } from './model.js';
import { FileSymbolsCache } from './symbol-cache.js';

export class SymbolLookup {
  private readonly defining = new Map<string, readonly SymbolFileRef[]>();
  private readonly definingNames = new Map<string, ReadonlySet<string>>();
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
      refs = this.withOverrides(this.index.filesDefining(name, this.canRead), (ref) => ref,
        (f) => (f.symbols.definitions.some((d) => d.name === name) ? refOf(f) : null));
      this.defining.set(name, refs);
    }
    return refs;
  }

  /** The file names (last path segments) of the files defining `name`. */
  definingFileNames(name: string): ReadonlySet<string> {
    let names = this.definingNames.get(name);
    if (names === undefined) {
      names = new Set(this.filesDefining(name).map((ref) => ref.path.slice(ref.path.lastIndexOf('/') + 1)));
      this.definingNames.set(name, names);
    }
    return names;
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

  /** Per file referencing `name`, its references to it: what find_references reads, once per call. */
  referenceGroups(name: string, mentions?: ImportMentions): readonly ReferenceGroup[] {
    return this.withOverrides(this.index.referenceGroups(name, this.canRead, mentions), (group) => group.file, (f) => referenceGroupOf(refOf(f), f.symbols, name));
  }

  /** The index's answer with files parsed on demand in place of their indexed versions. */
  private withOverrides<T>(items: readonly T[], fileOf: (item: T) => SymbolFileRef, fromOverride: (file: NavFile) => T | null): readonly T[] {
    if (this.overrides.length === 0) return items;
    const replaced = new Set(this.overrides.map((f) => fileKey(f.repo, f.path)));
    const out: T[] = [];
    for (const f of this.overrides) {
      const item = fromOverride(f);
      if (item !== null) out.push(item);
    }
    for (const item of items) if (!replaced.has(fileKey(fileOf(item).repo, fileOf(item).path))) out.push(item);
    return out;
  }
}

function refOf(file: NavFile): SymbolFileRef {
  return { repo: file.repo, commit: file.commit, path: file.path };
}

function fileKey(repo: string, path: string): string {
  return `${repo}\0${path}`;
}
