/**
 * find_references' engine: every reference, in the readable repositories, that resolves (by the
 * same rules as go_to_definition, from its own file) to one definition. Same-named symbols of other
 * scopes or modules resolve elsewhere and are left out; same-named file-level branches of one file
 * count as one. Ordered: the definition's file, its repository, then other repositories (those
 * importing it first).
 */
import type { ReferenceGroup, SourceRange, SymbolFileRef, SymbolImport, SymbolReference } from '../../model/symbols.js';
import { importMentions } from './import-candidates.js';
import { familyOf, isHeader, linkedFromOutside } from './language-rules.js';
import { certaintyRank, siteKey, usageOfReference, type Certainty, type DefinitionSite, type NavFile, type RankedDefinition, type Usage } from './model.js';
import { dirOf, importsReadOnlyDirectory } from './module-paths.js';
import { topTier } from './rank.js';
import type { Resolver } from './resolve.js';

export interface ReferenceSite {
  readonly file: NavFile;
  readonly range: SourceRange;
}

export interface References {
  /** How many references resolve to the definition, in all. */
  readonly total: number;
  /** The first `limit` of them, most relevant first. */
  readonly sites: readonly ReferenceSite[];
}

/** One file's references that resolve to the definition: counted at once, built only if shown. */
interface FileHits {
  readonly file: SymbolFileRef;
  readonly count: number;
  /** Some of them reach it through an import (or nearer), not by a repository-wide guess. */
  readonly imported: boolean;
  sites(): readonly ReferenceSite[];
}

export function findReferences(resolver: Resolver, target: DefinitionSite, limit = Infinity): References {
  const { name } = target.definition;
  const key = siteKey(target);
  // Most usages share one memoized resolution: judge each resolution once.
  const verdicts = new WeakMap<readonly RankedDefinition[], Verdict>();
  const resolves = (file: NavFile, usage: Usage): Verdict => {
    const candidates = resolver.resolve(file, usage);
    let verdict = verdicts.get(candidates);
    if (verdict === undefined) verdicts.set(candidates, (verdict = resolvesTo(candidates, key, target)));
    return verdict;
  };
  const hits: FileHits[] = [];
  const add = (file: NavFile, references: readonly SymbolReference[], scoped: boolean): void => {
    const sites: ReferenceSite[] = [];
    let imported = false;
    for (const reference of references) {
      if (file === target.file && sameStart(reference.range, target.definition.nameRange)) continue;
      const usage = usageOfReference(reference);
      const verdict = resolves(file, scoped ? usage : { ...usage, scope: -1 });
      if (verdict === null) continue;
      sites.push({ file, range: reference.range });
      imported ||= throughImport(verdict);
    }
    if (sites.length > 0) hits.push({ file, count: sites.length, imported, sites: () => sites });
  };
  // A file without a definition of the name resolves a bare use of it by its place (as
  // Resolver.elsewhere scores) and the imports that matter: one verdict per place and imports.
  const byPlace = new Map<string, Verdict>();
  add(target.file, target.file.symbols.references.filter((r) => r.name === name), true);
  for (const group of resolver.lookup.referenceGroups(name, importMentions(resolver.lookup, name))) {
    if (group.file.repo === target.file.repo && group.file.path === target.file.path) continue;
    if (group.definesName) {
      // The file's own definitions and scopes decide (shadowing): resolve over its whole tables.
      const file = resolver.lookup.file(group.file);
      if (file !== null) add(file, group.references(), true);
      continue;
    }
    // An import renaming the name (`import { x as y }`) binds it on its own line only, and the file
    // uses it under the new name: those uses are references too (not the new name's own binding),
    // resolved over the whole tables.
    const renames = group.imports.filter((i) => i.importedName === name && i.localName !== name);
    if (renames.length > 0) {
      const aliasUse = (r: SymbolReference): boolean => renames.some((i) => i.localName === r.name && !sameStart(i.range, r.range));
      const whole = resolver.lookup.file(group.file);
      if (whole !== null) add(whole, whole.symbols.references.filter((r) => r.name === name || aliasUse(r)), true);
      continue;
    }
    const bare = group.receivers.length === 1 && group.receivers[0] === undefined;
    if (bare && (group.imports.length === 0 || importsReadOnlyDirectory(familyOf(group.language)))) {
      const place = `${group.file.repo}\0${group.language}\0${dirOf(group.file.path)}\0${importsKey(group.imports)}`;
      let verdict = byPlace.get(place);
      if (verdict === undefined) byPlace.set(place, (verdict = resolves(groupFile(group), fileLevelUsage(name, undefined))));
      if (verdict !== null) hits.push({ file: group.file, count: group.count, imported: throughImport(verdict), sites: () => groupSites(group) });
      continue;
    }
    // Otherwise alike for every reference with one receiver.
    const file = groupFile(group);
    const verdicts = group.receivers.map((receiver) => resolves(file, fileLevelUsage(name, receiver)));
    const matched = group.receivers.filter((_, i) => verdicts[i] !== null);
    if (matched.length === group.receivers.length) {
      hits.push({ file: group.file, count: group.count, imported: verdicts.some((v) => v !== null && throughImport(v)), sites: () => groupSites(group) });
    } else if (matched.length > 0) add(file, group.references().filter((r) => matched.includes(r.receiver)), false);
  }
  // Other repositories: the files importing the definition before those that only guess it.
  hits.sort((a, b) => order(a.file, target) - order(b.file, target)
    || (order(a.file, target) === 2 ? Number(b.imported) - Number(a.imported) : 0)
    || cmp(a.file.repo, b.file.repo) || cmp(a.file.path, b.file.path));
  let total = 0;
  const sites: ReferenceSite[] = [];
  for (const hit of hits) {
    total += hit.count;
    if (sites.length < limit) sites.push(...[...hit.sites()].sort(byPosition).slice(0, limit - sites.length));
  }
  return { total, sites };
}

/** A file known by its reference group alone: no definitions, its imports as the scan left them. */
function groupFile(group: ReferenceGroup): NavFile {
  return { ...group.file, symbols: { language: group.language, definitions: [], references: [], imports: group.imports } };
}

function groupSites(group: ReferenceGroup): ReferenceSite[] {
  const file = groupFile(group);
  return group.references().map((r) => ({ file, range: r.range }));
}

function importsKey(imports: readonly SymbolImport[]): string {
  return imports.map((i) => `${i.localName}\t${i.importedName}\t${i.source}`).join('\n');
}

function fileLevelUsage(name: string, receiver: string | undefined): Usage {
  return receiver === undefined ? { name, scope: -1, line: 0 } : { name, scope: -1, line: 0, receiver };
}

function byPosition(a: ReferenceSite, b: ReferenceSite): number {
  return a.range.startLine - b.range.startLine || a.range.startColumn - b.range.startColumn;
}

/** How sure the resolution that reaches the definition is; null when it does not. */
type Verdict = Certainty | null;

function resolvesTo(candidates: readonly RankedDefinition[], key: string, target: DefinitionSite): Verdict {
  return topTier(candidates).find((c) => siteKey(c.site) === key || alternative(c.site, target) || linked(c.site, target))?.certainty ?? null;
}

function throughImport(certainty: Certainty): boolean {
  return certaintyRank(certainty) <= certaintyRank('import');
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

/**
 * C and C++: a top-level function or variable with external linkage is one entity with its
 * namesakes of external linkage, wherever declared, and with a header's other spelling of it for
 * another configuration: a macro (`#define mutex_lock(l) mutex_lock_nested(l, 0)`) or a `static
 * inline` fallback. A source file's private macro or function, or two such spellings alone, are not linked.
 */
function linked(a: DefinitionSite, b: DefinitionSite): boolean {
  if (familyOf(a.file.symbols.language) !== 'c' || familyOf(b.file.symbols.language) !== 'c') return false;
  if (a.definition.parent !== -1 || b.definition.parent !== -1 || a.definition.name !== b.definition.name) return false;
  const external = (s: DefinitionSite): boolean => linkedFromOutside(s.definition, undefined);
  const headerSpelling = (s: DefinitionSite): boolean => isHeader(s.file.path) && (s.definition.kind === 'macro' || s.definition.kind === 'function');
  return (external(a) && (external(b) || headerSpelling(b))) || (headerSpelling(a) && external(b));
}

function order(file: SymbolFileRef, target: DefinitionSite): number {
  if (file.repo !== target.file.repo) return 2;
  return file.path === target.file.path ? 0 : 1;
}

function sameStart(a: SourceRange, b: SourceRange): boolean {
  return a.startLine === b.startLine && a.startColumn === b.startColumn;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
