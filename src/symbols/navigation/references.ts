/**
 * find_references' engine: every reference, in the readable repositories, that resolves (by the
 * same rules as go_to_definition, from its own file) to one definition. Same-named symbols of other
 * scopes or modules resolve elsewhere and are left out; same-named file-level branches of one file
 * count as one. Ordered: the definition's file, its repository, then other repositories.
 */
import type { SourceRange, SymbolReference } from '../../model/symbols.js';
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
  const key = siteKey(target);
  const out: ReferenceSite[] = [];
  // Most usages of a file share one memoized resolution: judge each resolution once.
  const verdicts = new WeakMap<readonly RankedDefinition[], boolean>();
  const resolves = (candidates: readonly RankedDefinition[]): boolean => {
    let verdict = verdicts.get(candidates);
    if (verdict === undefined) verdicts.set(candidates, (verdict = resolvesTo(candidates, key, target)));
    return verdict;
  };
  // `scoped` false: the file's tables are left out, so every usage is taken at file level.
  const keep = (file: NavFile, references: readonly SymbolReference[], scoped = true): void => {
    for (const reference of references) {
      if (file === target.file && sameStart(reference.range, target.definition.nameRange)) continue;
      const usage = usageOfReference(reference);
      if (resolves(resolver.resolve(file, scoped ? usage : { ...usage, scope: -1 }))) out.push({ file, range: reference.range });
    }
  };
  keep(target.file, target.file.symbols.references.filter((r) => r.name === name));
  for (const ref of resolver.lookup.filesReferencing(name)) {
    if (ref.repo === target.file.repo && ref.path === target.file.path) continue;
    const named = resolver.lookup.namedReferences(ref, name);
    if (named === null) continue;
    if (named.definesName) {
      // The file's own definitions and scopes decide (shadowing): resolve over its whole tables.
      const file = resolver.lookup.file(ref);
      if (file !== null) keep(file, named.references);
    } else {
      // No definition of the name here, so no scope of this file binds it: its imports and place decide.
      keep({ repo: ref.repo, commit: ref.commit, path: ref.path, symbols: { language: named.language, definitions: [], references: [], imports: named.imports } }, named.references, false);
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
  return site.file === target.file ? 0 : 1;
}

function sameStart(a: SourceRange, b: SourceRange): boolean {
  return a.startLine === b.startLine && a.startColumn === b.startColumn;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
