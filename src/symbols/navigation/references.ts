/**
 * find_references' engine: every reference, in the readable repositories, that resolves (by the
 * same rules as go_to_definition, from its own file) to one definition. Same-named symbols of other
 * scopes or modules resolve elsewhere and are left out; same-named file-level branches of one file
 * count as one. Ordered: the definition's file, its repository, then other repositories.
 */
import type { SourceRange } from '../../model/symbols.js';
import { familyOf } from './language-rules.js';
import { siteKey, usageOfReference, type DefinitionSite, type NavFile, type RankedDefinition } from './model.js';
import { topTier } from './rank.js';
import type { Resolver } from './resolve.js';

export interface ReferenceSite {
  readonly file: NavFile;
  readonly range: SourceRange;
}

export function findReferences(resolver: Resolver, target: DefinitionSite): ReferenceSite[] {
  const { name } = target.definition;
  const files = new Map<string, NavFile>([[`${target.file.repo}\0${target.file.path}`, target.file]]);
  for (const ref of resolver.lookup.filesReferencing(name)) {
    const file = resolver.lookup.file(ref);
    if (file !== null) files.set(`${file.repo}\0${file.path}`, file);
  }
  const key = siteKey(target);
  const out: ReferenceSite[] = [];
  for (const file of files.values()) {
    for (const reference of file.symbols.references) {
      if (reference.name !== name) continue;
      if (sameStart(reference.range, target.definition.nameRange) && file === target.file) continue;
      if (resolvesTo(resolver.resolve(file, usageOfReference(reference)), key, target)) out.push({ file, range: reference.range });
    }
  }
  return out.sort((a, b) => order(a, target) - order(b, target) || cmp(a.file.repo, b.file.repo) || cmp(a.file.path, b.file.path)
    || a.range.startLine - b.range.startLine || a.range.startColumn - b.range.startColumn);
}

function resolvesTo(candidates: readonly RankedDefinition[], key: string, target: DefinitionSite): boolean {
  return topTier(candidates).some((c) => siteKey(c.site) === key || alternative(c.site, target) || linked(c.site, target));
}

/**
 * Same-named file-level definitions of one kind in one file are branches of one symbol (C `#ifdef`,
 * Rust `#[cfg]`, Python redefinition): a usage binds to whichever precedes it, yet means them all.
 * Kept to file level, where blocks are not flattened into one scope as a function's locals are.
 */
function alternative(a: DefinitionSite, b: DefinitionSite): boolean {
  return a.file.repo === b.file.repo && a.file.path === b.file.path
    && a.definition.parent === -1 && b.definition.parent === -1
    && a.definition.name === b.definition.name && a.definition.kind === b.definition.kind;
}

/** C and C++: exported top-level names are one entity to the linker, wherever declared. */
function linked(a: DefinitionSite, b: DefinitionSite): boolean {
  return familyOf(a.file.symbols.language) === 'c' && familyOf(b.file.symbols.language) === 'c'
    && a.definition.exported && b.definition.exported && a.definition.parent === -1 && b.definition.parent === -1
    && a.definition.name === b.definition.name;
}

function order(site: ReferenceSite, target: DefinitionSite): number {
  if (site.file.repo !== target.file.repo) return 2;
  return site.file.path === target.file.path ? 0 : 1;
}

function sameStart(a: SourceRange, b: SourceRange): boolean {
  return a.startLine === b.startLine && a.startColumn === b.startColumn;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
