/**
 * JavaScript and TypeScript names reached through re-exports: a barrel's `export * from`, an
 * `export { a as b } from`, and namespaces (`import * as core`, `export * as util from`) whose
 * members are asked for as `core.x` or `core.util.x`. Followed file by file among the importing
 * repository's files, for specifiers written as paths. Reads symbol tables only; a path it cannot
 * follow gives nothing.
 */
import type { SymbolImport } from '../../model/symbols.js';
import type { SymbolLookup } from './lookup.js';
import type { DefinitionSite, NavFile } from './model.js';
import { dirOf, namesPath, normalizePath } from './module-paths.js';

/** Steps (a file asked for a name) one lookup takes at most: a barrel of a dozen `export *` lines, some barrels themselves. */
const MAX_STEPS = 64;
/** What TypeScript tries for a specifier, in its order: `./util.js` is util.ts before util.js. */
const EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];
const SCRIPT_EXTENSION = /\.(m|c)?[jt]sx?$/;

/** The indexed file a path specifier written in `from` names: `./util.js` is util.ts or util.js, `./codegen` may be codegen/index.ts. */
export function scriptModuleFile(lookup: SymbolLookup, from: NavFile, source: string): NavFile | null {
  if (!namesPath(source)) return null;
  const target = normalizePath(source.startsWith('/') ? source : `${dirOf(from.path)}/${source}`);
  if (target === null) return null;
  const stem = target.replace(SCRIPT_EXTENSION, '');
  for (const base of [stem, `${stem}/index`]) {
    for (const extension of EXTENSIONS) {
      const file = lookup.file({ repo: from.repo, commit: from.commit, path: `${base}${extension}` });
      if (file !== null) return file;
    }
  }
  return null;
}

/** The file-level definitions of `name` the module `source` (written in `from`) exports, through its re-exports. */
export function scriptExportedDefinitions(lookup: SymbolLookup, from: NavFile, source: string, name: string): DefinitionSite[] {
  const file = scriptModuleFile(lookup, from, source);
  return file === null ? [] : exportedFrom(lookup, file, name, new Set());
}

/**
 * The modules a namespace path names, from the import binding its head (`core` of `core.util`):
 * `import * as core from` binds the module itself, `import { util } from` a namespace that module
 * re-exports; each further segment is a namespace re-exported by the module before it.
 */
export function namespaceModules(lookup: SymbolLookup, origin: NavFile, binding: SymbolImport, rest: readonly string[]): NavFile[] {
  const module = scriptModuleFile(lookup, origin, binding.source);
  if (module === null) return [];
  let files = binding.importedName === '*' ? [module] : namespaceIn(lookup, module, binding.importedName, new Set());
  for (const segment of rest) files = files.flatMap((file) => namespaceIn(lookup, file, segment, new Set()));
  return files;
}

/** The members `name` of the modules a namespace path names, through their re-exports. */
export function namespaceMembers(lookup: SymbolLookup, modules: readonly NavFile[], name: string): DefinitionSite[] {
  return modules.flatMap((file) => exportedFrom(lookup, file, name, new Set()));
}

function exportedFrom(lookup: SymbolLookup, file: NavFile, name: string, seen: Set<string>): DefinitionSite[] {
  if (!firstVisit(seen, file, name)) return [];
  const defined: DefinitionSite[] = [];
  file.symbols.definitions.forEach((definition, index) => {
    if (definition.name === name && definition.parent === -1) defined.push({ file, index, definition });
  });
  if (defined.length > 0) return defined;
  const named = file.symbols.imports.find((i) => i.localName === name);
  if (named !== undefined) {
    // A namespace or a default export has no one definition under this name.
    if (named.importedName === '*' || named.importedName === 'default') return [];
    const next = scriptModuleFile(lookup, file, named.source);
    return next === null ? [] : exportedFrom(lookup, next, named.importedName, seen);
  }
  return throughWildcards(lookup, file, (next) => exportedFrom(lookup, next, name, seen));
}

/** The module a file exports under `name` as a namespace (`export * as name from`), found through its `export *` too. */
function namespaceIn(lookup: SymbolLookup, file: NavFile, name: string, seen: Set<string>): NavFile[] {
  if (!firstVisit(seen, file, name)) return [];
  const named = file.symbols.imports.find((i) => i.localName === name);
  if (named !== undefined) {
    const next = scriptModuleFile(lookup, file, named.source);
    if (next === null) return [];
    return named.importedName === '*' ? [next] : namespaceIn(lookup, next, named.importedName, seen);
  }
  return throughWildcards(lookup, file, (next) => namespaceIn(lookup, next, name, seen));
}

/** The first non-empty answer among the modules the file re-exports whole (`export * from`). */
function throughWildcards<T>(lookup: SymbolLookup, file: NavFile, look: (next: NavFile) => T[]): T[] {
  for (const wildcard of file.symbols.imports) {
    if (wildcard.localName !== '*' || wildcard.importedName !== '*') continue;
    const next = scriptModuleFile(lookup, file, wildcard.source);
    const found = next === null ? [] : look(next);
    if (found.length > 0) return found;
  }
  return [];
}

/** Marks the (file, name) step taken; false when it was, or the chain is too long (barrels that re-export each other). */
function firstVisit(seen: Set<string>, file: NavFile, name: string): boolean {
  const key = `${file.repo}\0${file.path}\0${name}`;
  if (seen.has(key) || seen.size >= MAX_STEPS) return false;
  seen.add(key);
  return true;
}
