/**
 * The import step of resolution: a name bound by an import (`import { x }`, `from m import x`, a
 * namespace receiver like `util.x` or Go's `pkg.X`) resolves only into the imported module; wildcard
 * imports, includes and same-package files add candidates without binding the name.
 */
import type { FileSymbols, ImportMentions, SymbolImport } from '../../model/symbols.js';
import { directoryIsPackage, familyOf, isContainer, isHeader, isSelfReceiver, linkedFromOutside, type LanguageFamily } from './language-rules.js';
import type { SymbolLookup } from './lookup.js';
import type { DefinitionSite, NavFile, Usage } from './model.js';
import { dirOf, includedFileName, moduleTest, namesPath, type ModuleTest } from './module-paths.js';
import { reexportedDefinitions } from './rust-reexports.js';
import { namespaceMembers, namespaceModules, scriptExportedDefinitions } from './script-reexports.js';

export interface ImportResolution {
  /** An import binds the name (or its receiver): resolution stops here, found or not. */
  readonly bound: boolean;
  readonly sites: readonly DefinitionSite[];
}

const MODULE_SEPARATOR: Readonly<Record<LanguageFamily, string>> = { js: '/', python: '.', go: '/', rust: '::', jvm: '.', c: '/', other: '.' };

export function importCandidates(lookup: SymbolLookup, origin: NavFile, usage: Usage, family: LanguageFamily): ImportResolution {
  const { imports } = origin.symbols;
  const { name, receiver } = usage;
  const testOf = (source: string): ModuleTest => moduleTest(family, origin.repo, origin.path, source);
  if (receiver === undefined) {
    // The imported name inside the import statement itself (`helper` in `import { helper as h }`) is bound too.
    const bindings = imports.filter((i) => i.localName === name || (i.importedName === name && i.range.startLine === usage.line));
    if (bindings.length > 0) {
      // A default export has no name of its own in the tables; by convention it is the local name.
      // A whole module bound to a name (`const View = require('./view')`) means, by convention, its same-named export.
      const sites = bindings.filter((b) => b.importedName !== '*' || family === 'js')
        .flatMap((b) => definitionsIn(lookup, b.importedName === 'default' || b.importedName === '*' ? name : b.importedName, [testOf(b.source)], false));
      if (sites.length > 0) return { bound: true, sites };
      // A module that only re-exports the item (`pub use`, `export * from`, `export { x } from`) leads on to where it is defined.
      if (family === 'rust') return { bound: true, sites: bindings.flatMap((b) => reexportedDefinitions(lookup, origin, b.importedName, b.source)) };
      if (family === 'js') return { bound: true, sites: bindings.flatMap((b) => (b.importedName === '*' || b.importedName === 'default' ? [] : scriptExportedDefinitions(lookup, origin, b.source, b.importedName))) };
      return { bound: true, sites };
    }
  } else if (receiver !== '' && !isSelfReceiver(receiver)) {
    const bindings = imports.filter((i) => bindsReceiver(i, receiver, family));
    if (bindings.length > 0) {
      const tests = bindings.flatMap((b) => (b.importedName === '*' || b.importedName === 'default' || b.importedName === b.source
        ? [testOf(b.source)]
        : [testOf(b.source), testOf(submodule(family, b.source, b.importedName))]));
      const sites = definitionsIn(lookup, name, tests, true);
      if (sites.length > 0 || (family !== 'rust' && family !== 'js')) return { bound: true, sites };
      // `ast::visit` with `ast` a module that re-exports visit (`pub use crate::ast::visitor::{visit}`).
      if (family === 'rust') return { bound: true, sites: bindings.flatMap((b) => reexportedDefinitions(lookup, origin, name, b.importedName === '*' ? b.source : submodule(family, b.source, b.importedName))) };
    }
    // `core.x` and `core.util.x`, core a namespace import: members the module exports, through its re-exports.
    if (family === 'js') {
      const [head, ...rest] = receiver.split('.');
      const heads = imports.filter((i) => i.localName === head);
      if (heads.length > 0) {
        const sites = namespaceMembers(lookup, heads.flatMap((b) => namespaceModules(lookup, origin, b, rest)), name);
        if (sites.length > 0 || bindings.length > 0) return { bound: true, sites };
      }
    }
  }
  // Every C include is a wildcard, and a file includes dozens: only those naming a defining file's name can matter.
  const fileNames = family === 'c' ? lookup.definingFileNames(name) : null;
  const wildcards = imports.filter((i) => i.localName === '*' && (fileNames === null || fileNames.has(includedFileName(i.source)))).map((i) => testOf(i.source));
  if (directoryIsPackage(family)) {
    const dir = dirOf(origin.path);
    wildcards.push((repo, path) => repo === origin.repo && path !== origin.path && dirOf(path) === dir);
  }
  const sites = definitionsIn(lookup, name, wildcards, receiver !== undefined);
  // An included header's declaration with external linkage (`extern int x;`) means the source file's
  // definition the linker joins it to; a `static inline` function or a macro there is the definition itself.
  if (family === 'c' && sites.length > 0 && sites.every((s) => isHeader(s.file.path)) && sites.some((s) => linkedFromOutside(s.definition, undefined))) {
    sites.push(...linkedDefinitions(lookup, name));
  }
  return { bound: false, sites };
}

/** Past this many file names, testing every include against them costs more than building them. */
const MAX_MENTIONED_FILES = 32;

/**
 * What an import must mention to matter to `name`'s references (see importCandidates): in C, a
 * binding of the name or a receiver (C++ `using`), or an include of a file named like one of its
 * definitions. Read up front: the scan calls this between reads that share lmdb's buffer.
 */
export function importMentions(lookup: SymbolLookup, name: string): ImportMentions {
  const fileNames = lookup.definingFileNames(name);
  const bare = fileNames.size > MAX_MENTIONED_FILES ? null : [name, ...fileNames];
  // One array per set of receivers: the scan compiles a matcher per array it is given.
  const withReceivers = new Map<string, readonly string[]>();
  return (language, receivers) => {
    if (bare === null || familyOf(language) !== 'c') return null;
    const named = receivers.filter((r): r is string => r !== undefined);
    if (named.length === 0) return bare;
    const key = named.join('\n');
    let mentions = withReceivers.get(key);
    if (mentions === undefined) withReceivers.set(key, (mentions = [...bare, ...named]));
    return mentions;
  };
}

/** `pkg` + `mod` → `pkg.mod`; Python's `from . import mod` gives `.mod`. */
function submodule(family: LanguageFamily, source: string, name: string): string {
  return family === 'python' && /^\.+$/.test(source) ? `${source}${name}` : `${source}${MODULE_SEPARATOR[family]}${name}`;
}

function bindsReceiver(imp: SymbolImport, receiver: string, family: LanguageFamily): boolean {
  if (imp.localName === receiver || imp.source === receiver) return true;
  // Go binds an unaliased import to its package name, which is usually the path's last element.
  return family === 'go' && imp.localName === imp.source && imp.source.slice(imp.source.lastIndexOf('/') + 1) === receiver;
}

/** Top-level definitions named `name` in files some test accepts; members too when reached through a receiver. */
function definitionsIn(lookup: SymbolLookup, name: string, tests: readonly ModuleTest[], members: boolean): DefinitionSite[] {
  if (tests.length === 0) return [];
  const out: DefinitionSite[] = [];
  for (const ref of lookup.filesDefining(name)) {
    if (!tests.some((test) => test(ref.repo, ref.path))) continue;
    const file = lookup.file(ref);
    if (file === null) continue;
    const defs = file.symbols.definitions;
    // `module.x` means the module's own x; only a file without one offers class members (`Strings.join`).
    const topLevel = defs.some((d) => d.name === name && d.parent === -1);
    defs.forEach((definition, index) => {
      if (definition.name !== name) return;
      const parent = definition.parent >= 0 ? defs[definition.parent] : undefined;
      if (definition.parent === -1 || (members && !topLevel && parent !== undefined && isContainer(parent))) out.push({ file, index, definition });
    });
  }
  return out;
}

/** C: what a header declares, a source file defines; the linker joins exported names. */
function linkedDefinitions(lookup: SymbolLookup, name: string): DefinitionSite[] {
  const out: DefinitionSite[] = [];
  for (const ref of lookup.filesDefining(name)) {
    if (isHeader(ref.path)) continue;
    const file = lookup.file(ref);
    if (file === null) continue;
    file.symbols.definitions.forEach((definition, index) => {
      if (definition.name === name && definition.parent === -1 && linkedFromOutside(definition, undefined)) out.push({ file, index, definition });
    });
  }
  return out;
}

/**
 * The import that binds `name` where a definition of it sits (`const x = require('x')` is both):
 * resolution follows the import instead of stopping at the binding.
 */
export function importBindingAt(symbols: FileSymbols, name: string, line: number): SymbolImport | undefined {
  return symbols.imports.find((i) => i.localName === name && i.range.startLine <= line && line <= i.range.endLine);
}

/** A module named by package, not by path: outside the repository unless an indexed repository provides it. */
export function namesPackage(family: LanguageFamily, source: string): boolean {
  return family === 'js' && !namesPath(source);
}
