/**
 * find_references' engine: every reference, in the readable repositories, that resolves (by the
 * same rules as go_to_definition, from its own file) to one definition. Same-named symbols of other
 * scopes or modules resolve elsewhere and are left out; same-named file-level branches of one file
 * count as one. A use that reaches the definition only by its name (a receiver of unknown type, a
 * tie with other definitions, a name no import binds) is kept apart as a name match, so the total
 * claims only what resolved. Ordered: resolved before name matches; within each, the definition's
 * file, its repository, then other repositories (those importing it first).
 */
import type { ReferenceGroup, SourceRange, SymbolFileRef, SymbolImport, SymbolReference } from '../../model/symbols.js';
import { importBindingAt, importMentions } from './import-candidates.js';
import { declaresTypes, directoryIsPackage, familyOf, isHeader, isMemberDefinition, isSelfReceiver, linkedFromOutside, mayBeTyped, parentOf } from './language-rules.js';
import { certaintyRank, siteKey, usageOfReference, type Certainty, type DefinitionSite, type NavFile, type RankedDefinition, type Usage } from './model.js';
import { dirOf, importsReadOnlyDirectory } from './module-paths.js';
import { topTier } from './rank.js';
import type { Resolver } from './resolve.js';

export interface ReferenceSite {
  readonly file: NavFile;
  readonly range: SourceRange;
  /** The innermost definition of the file enclosing it, or -1 at file level. */
  readonly scope: number;
  /** False for a name match: it may mean the definition, but its binding or receiver is not known. */
  readonly resolved: boolean;
}

export interface References {
  /** How many references resolve to the definition, in all. */
  readonly total: number;
  /** How many more same-named uses reach it only by their name. */
  readonly unresolved: number;
  /** The window asked for of the references, then the name matches, most relevant first. */
  readonly sites: readonly ReferenceSite[];
}

/** Which part of the ordered references to build: `offset` skipped, then at most `limit`. */
export interface ReferenceWindow {
  readonly offset?: number;
  readonly limit?: number;
}

/** One file's references that resolve to the definition, or its name matches: counted at once, built only if shown. */
interface FileHits {
  readonly file: SymbolFileRef;
  readonly count: number;
  readonly resolved: boolean;
  /** Some of them reach it through an import (or nearer), not by a repository-wide guess. */
  readonly imported: boolean;
  sites(): readonly ReferenceSite[];
}

export function findReferences(resolver: Resolver, target: DefinitionSite, window: ReferenceWindow = {}): References {
  const { name } = target.definition;
  const key = siteKey(target);
  // Most usages share one memoized resolution: judge each resolution once.
  const verdicts = new WeakMap<readonly RankedDefinition[], Verdict>();
  const resolves = (file: NavFile, usage: Usage): Verdict => {
    const candidates = resolver.resolve(file, usage);
    let verdict = verdicts.get(candidates);
    if (verdict === undefined) verdicts.set(candidates, (verdict = resolvesTo(candidates, key, target, file, usage)));
    return verdict;
  };
  const hits: FileHits[] = [];
  const add = (file: NavFile, references: readonly SymbolReference[], scoped: boolean): void => {
    const found: { site: ReferenceSite; verdict: Reached }[] = [];
    for (const reference of references) {
      if (file === target.file && sameStart(reference.range, target.definition.nameRange)) continue;
      const usage = usageOfReference(reference);
      const verdict = resolves(file, scoped ? usage : { ...usage, scope: -1 });
      if (verdict !== null) found.push({ site: { file, range: reference.range, scope: reference.scope, resolved: verdict.resolved }, verdict });
    }
    // A binding an import makes (`const x = require('./m')`) is a definition of the file, yet it names the target.
    if (scoped && file !== target.file) {
      file.symbols.definitions.forEach((definition, self) => {
        if (definition.name !== name || importBindingAt(file.symbols, name, definition.nameRange.startLine) === undefined) return;
        const verdict = resolves(file, { name, scope: definition.parent, line: definition.nameRange.startLine, self });
        if (verdict !== null) found.push({ site: { file, range: definition.nameRange, scope: definition.parent, resolved: verdict.resolved }, verdict });
      });
    }
    for (const resolved of [true, false]) {
      const part = found.filter((f) => f.site.resolved === resolved);
      if (part.length === 0) continue;
      const sites = part.map((f) => f.site);
      hits.push({ file, count: sites.length, resolved, imported: part.some((f) => throughImport(f.verdict)), sites: () => sites });
    }
  };
  const addGroup = (group: ReferenceGroup, verdicts: readonly Reached[]): void => {
    const resolved = verdicts.every((v) => v.resolved);
    hits.push({ file: group.file, count: group.count, resolved, imported: verdicts.some(throughImport), sites: () => groupSites(group, resolved) });
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
      if (verdict !== null) addGroup(group, [verdict]);
      continue;
    }
    // A receiver that may be a typed variable resolves through its declaration, which the file's scopes find.
    if (declaresTypes(familyOf(group.language)) && group.receivers.some(mayBeTyped)) {
      const whole = resolver.lookup.file(group.file);
      if (whole !== null) {
        add(whole, whole.symbols.references.filter((r) => r.name === name), true);
        continue;
      }
    }
    // Otherwise alike for every reference with one receiver.
    const file = groupFile(group);
    const verdicts = group.receivers.map((receiver) => resolves(file, fileLevelUsage(name, receiver)));
    const reached = verdicts.filter((v): v is Reached => v !== null);
    const matched = group.receivers.filter((_, i) => verdicts[i] !== null);
    const alike = reached.every((v) => v.resolved === reached[0]?.resolved);
    if (matched.length === group.receivers.length && alike) addGroup(group, reached);
    else if (matched.length > 0) add(file, group.references().filter((r) => matched.includes(r.receiver)), false);
  }
  // Other repositories: the files importing the definition before those that only guess it.
  hits.sort((a, b) => Number(b.resolved) - Number(a.resolved) || order(a.file, target) - order(b.file, target)
    || (order(a.file, target) === 2 ? Number(b.imported) - Number(a.imported) : 0)
    || cmp(a.file.repo, b.file.repo) || cmp(a.file.path, b.file.path));
  return windowOf(hits, window);
}

/** Counts every hit; builds the sites of the window only. */
function windowOf(hits: readonly FileHits[], { offset = 0, limit = Infinity }: ReferenceWindow): References {
  let total = 0;
  let unresolved = 0;
  let skip = offset;
  const sites: ReferenceSite[] = [];
  for (const hit of hits) {
    if (hit.resolved) total += hit.count;
    else unresolved += hit.count;
    if (skip >= hit.count) {
      skip -= hit.count;
      continue;
    }
    if (sites.length < limit) sites.push(...[...hit.sites()].sort(byPosition).slice(skip, skip + limit - sites.length));
    skip = 0;
  }
  return { total, unresolved, sites };
}

/** A file known by its reference group alone: no definitions, its imports as the scan left them. */
function groupFile(group: ReferenceGroup): NavFile {
  return { ...group.file, symbols: { language: group.language, definitions: [], references: [], imports: group.imports } };
}

function groupSites(group: ReferenceGroup, resolved: boolean): ReferenceSite[] {
  const file = groupFile(group);
  return group.references().map((r) => ({ file, range: r.range, scope: r.scope, resolved }));
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

/** How a use reaches the definition, and whether it resolved or matched by name only. */
interface Reached {
  readonly certainty: Certainty;
  readonly resolved: boolean;
}

/** Null when the use does not reach the definition. */
type Verdict = Reached | null;

function resolvesTo(candidates: readonly RankedDefinition[], key: string, target: DefinitionSite, origin: NavFile, usage: Usage): Verdict {
  const top = topTier(candidates);
  const same = (c: RankedDefinition): boolean => siteKey(c.site) === key || alternative(c.site, target) || linked(c.site, target);
  const hit = top.find(same);
  if (hit === undefined) return null;
  return { certainty: hit.certainty, resolved: top.every(same) && (bindingKnown(hit, origin, usage) || onlyMemberOfItsName(candidates, same, usage, target)) };
}

/**
 * Whether the way the use reached the definition names it, rather than guessing by its name: a
 * scope, an import, the enclosing class (`this`, `self`), a receiver declared with the definition's
 * type or naming its container, or a
 * package (Go, Java) or linker (C) that shares names between files. `x.name` with x of unknown
 * type, and a bare name no import binds in JavaScript, Python or Rust, are name matches.
 */
function bindingKnown(hit: RankedDefinition, origin: NavFile, usage: Usage): boolean {
  const { receiver } = usage;
  if (receiver !== undefined && !isSelfReceiver(receiver) && hit.certainty !== 'import' && hit.certainty !== 'typed') {
    return receiver === parentOf(hit.site.file, hit.site.definition)?.name;
  }
  if (hit.certainty === 'local' || hit.certainty === 'file' || hit.certainty === 'import' || hit.certainty === 'typed') return true;
  const family = familyOf(origin.symbols.language);
  const { file } = hit.site;
  if (file.repo !== origin.repo) return false;
  if (directoryIsPackage(family)) return dirOf(file.path) === dirOf(origin.path);
  return family === 'c' && hit.certainty === 'repo-exported';
}

/** A receiver that is one variable: in `a.b.name` the member `b` is itself a guess. */
const PLAIN_RECEIVER = /^[A-Za-z_$][\w$]*$/;

/**
 * `x.name` with x a variable of unknown type, where the indexed code defines exactly one member of
 * that name: nothing else in the repositories searched could be meant (koa's `ctx.vary()` reaching
 * `vary` of its response object through delegation).
 */
function onlyMemberOfItsName(candidates: readonly RankedDefinition[], same: (c: RankedDefinition) => boolean, usage: Usage, target: DefinitionSite): boolean {
  const member = (site: DefinitionSite): boolean => isMemberDefinition(site.file.symbols.definitions, site.definition);
  if (usage.receiver === undefined || !PLAIN_RECEIVER.test(usage.receiver) || !member(target)) return false;
  return candidates.filter((c) => member(c.site)).every(same);
}

function throughImport(reached: Reached): boolean {
  return certaintyRank(reached.certainty) <= certaintyRank('import');
}

/**
 * Same-named file-level definitions of one kind in one file are branches of one symbol (C `#ifdef`,
 * Rust `#[cfg]`, Python redefinition): a usage binds to whichever precedes it, yet means them all.
 * In TypeScript they are one symbol whatever their kinds (declaration merging: `interface E` and
 * `const E`); Go methods of different receiver types are not. Kept to file level, where blocks are not flattened into one scope as a function's locals are.
 */
function alternative(a: DefinitionSite, b: DefinitionSite): boolean {
  return a.file.repo === b.file.repo && a.file.path === b.file.path
    && a.definition.parent === -1 && b.definition.parent === -1 && a.definition.name === b.definition.name
    && (familyOf(a.file.symbols.language) === 'js' || (a.definition.kind === b.definition.kind && a.definition.type === b.definition.type));
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
