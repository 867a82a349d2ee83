/**
 * Rust items reached through `pub use` re-exports (`use globset::GlobBuilder`, where globset's
 * lib.rs says `pub use crate::glob::{GlobBuilder, …}`): followed module file by module file from the
 * crate root the path names to the file that defines the item. A workspace crate is found in the
 * importing repository by its directory (`globset` in crates/globset/src/, `grep_searcher` in
 * crates/searcher/src/). Reads symbol tables only; a path it cannot follow gives nothing.
 */
import type { DefinitionSite, NavFile } from './model.js';
import type { SymbolLookup } from './lookup.js';
import { stemOf } from './module-paths.js';

/** Re-exports followed one after another at most. */
const MAX_HOPS = 4;
const CRATE_ROOT = /^(.*?\/)?src\//;

export function reexportedDefinitions(lookup: SymbolLookup, origin: NavFile, name: string, source: string): DefinitionSite[] {
  return follow(lookup, origin, name, source, 0);
}

function follow(lookup: SymbolLookup, from: NavFile, name: string, source: string, hops: number): DefinitionSite[] {
  if (hops >= MAX_HOPS) return [];
  for (const path of moduleFiles(lookup, from, name, source)) {
    const file = lookup.file({ repo: from.repo, commit: from.commit, path });
    if (file === null) continue;
    const defined: DefinitionSite[] = [];
    file.symbols.definitions.forEach((definition, index) => {
      if (definition.name === name && definition.parent === -1) defined.push({ file, index, definition });
    });
    if (defined.length > 0) return defined;
    const named = file.symbols.imports.find((i) => i.localName === name);
    const onward = named === undefined ? file.symbols.imports.filter((i) => i.localName === '*') : [named];
    for (const imported of onward) {
      const found = follow(lookup, file, imported.localName === '*' ? name : imported.importedName, imported.source, hops + 1);
      if (found.length > 0) return found;
    }
  }
  return [];
}

/** The files a module path may be, from `from`: `a::b` is `src/a/b.rs` or `src/a/b/mod.rs` of its crate; a crate itself is its `src/lib.rs`. */
function moduleFiles(lookup: SymbolLookup, from: NavFile, name: string, source: string): string[] {
  const segments = source.split('::').filter(Boolean);
  const head = segments[0];
  if (head === undefined) return [];
  let roots: string[];
  let inner: string[];
  if (head === 'crate' || head === 'self' || head === 'super') {
    const root = CRATE_ROOT.exec(from.path)?.[0];
    if (root === undefined) return [];
    let module = modulePathIn(from.path, root);
    let i = head === 'crate' ? 1 : 0;
    if (head === 'crate') module = [];
    for (; segments[i] === 'self' || segments[i] === 'super'; i++) if (segments[i] === 'super') module = module.slice(0, -1);
    roots = [root];
    inner = [...module, ...segments.slice(i)];
  } else {
    roots = workspaceCrateRoots(lookup, from.repo, head, name);
    inner = segments.slice(1);
  }
  return roots.flatMap((root) => (inner.length === 0 ? [`${root}lib.rs`] : [`${root}${inner.join('/')}.rs`, `${root}${inner.join('/')}/mod.rs`]));
}

/** `src/a/b.rs` and `src/a/b/mod.rs` are the module a::b; lib.rs, main.rs and a mod.rs at the root are the crate. */
function modulePathIn(path: string, root: string): string[] {
  const stem = stemOf(path.slice(root.length));
  const parts = stem.split('/').filter(Boolean);
  const last = parts.at(-1);
  if (last === 'mod' || (parts.length === 1 && (last === 'lib' || last === 'main'))) parts.pop();
  return parts;
}

/** Roots (`…/src/`) of the repository's crates named `crate`, among those that define `name` somewhere. */
function workspaceCrateRoots(lookup: SymbolLookup, repo: string, crate: string, name: string): string[] {
  const wanted = crate.replace(/_/g, '-');
  const roots = new Set<string>();
  for (const ref of lookup.filesDefining(name)) {
    if (ref.repo !== repo || !ref.path.endsWith('.rs')) continue;
    const root = CRATE_ROOT.exec(ref.path)?.[0];
    if (root === undefined) continue;
    const dir = root.slice(0, -'src/'.length).split('/').filter(Boolean).at(-1)?.replace(/_/g, '-') ?? '';
    // A workspace names its crates' directories after the crate, often without the project prefix.
    if (dir !== '' && (dir === wanted || wanted.endsWith(`-${dir}`))) roots.add(root);
  }
  return [...roots];
}
