/**
 * Resolves one usage of a name to ranked definitions, in the order scope rules give: the lexical
 * scope chain (innermost first, so shadowing holds), the file, its imports, the package, the
 * repository, then other repositories. Never parses: it reads symbol tables only.
 */
import type { SymbolDefinition } from '../../model/symbols.js';
import { MEMBER_KINDS } from '../language-spec.js';
import { familyOf, isContainer, isSelfReceiver, membersVisibleBare, methodsDeclaredApart, visibleAcrossFiles, type LanguageFamily } from './language-rules.js';
import type { SymbolLookup } from './lookup.js';
import { siteKey, type Certainty, type DefinitionSite, type NavFile, type RankedDefinition, type Usage } from './model.js';
import { importBindingAt, importCandidates, namesPackage } from './import-candidates.js';
import { dirOf } from './module-paths.js';
import { assignedAccessor, preferAccessor } from './accessors.js';
import { augmentedInterfaces, scriptGlobalReceiver } from './builtins.js';
import { childrenNamed, sameRange, within } from './definition-tree.js';
import { scopeOfDeclaration } from './scopes.js';
import { bareVisible, isMember, reachableFromOutside, reachedThroughObject, sameFamily } from './visibility.js';
import { compareRanked, placeScore, rankSite, siteScore, sortCandidates, topTier } from './rank.js';

const TOP_LEVEL_BONUS = 64;
/** How far up a class hierarchy members are looked for. */
const MAX_SUPERCLASSES = 8;
/** How many variables a declared type is followed through (`self.app = app`, app annotated). */
const MAX_TYPE_HOPS = 3;
/** Type lookups nested one inside another (a class's base, looked up where nested classes see inherited members). */
const MAX_TYPE_LOOKUPS = 16;

interface Reachable {
  readonly site: DefinitionSite;
  readonly visible: boolean;
  /** siteScore, and the member bonus a receiver gives. */
  readonly score: number;
}

export class Resolver {
  /** Per file and receiver: the part of a resolution that does not depend on where the usage is. */
  private readonly wideMemo = new Map<string, RankedDefinition[]>();
  private readonly elsewhereMemo = new Map<string, RankedDefinition[]>();
  private readonly reachableMemo = new Map<string, Reachable[]>();
  /** Type lookups in progress, one inside another. */
  private typeLookups = 0;

  constructor(readonly lookup: SymbolLookup) {}

  resolve(origin: NavFile, usage: Usage, qualifier?: string): RankedDefinition[] {
    const asMember = assignedAccessor(origin, usage);
    const found = this.resolveUsage(origin, asMember ?? usage, qualifier);
    return preferAccessor(found, asMember ?? usage);
  }

  private resolveUsage(origin: NavFile, usage: Usage, qualifier?: string): RankedDefinition[] {
    const defs = origin.symbols.definitions;
    const family = familyOf(origin.symbols.language);
    if (usage.self !== undefined) {
      // The file defines the name itself; of several such definitions the top-level one is meant,
      // unless a qualifier names the container.
      const self: DefinitionSite = { file: origin, index: usage.self, definition: defs[usage.self]! };
      const ranked = rankSite(origin, self, 'file', qualifier);
      const own = self.definition.parent === -1 && qualifier === undefined ? { ...ranked, score: ranked.score + TOP_LEVEL_BONUS } : ranked;
      // A binding an import makes (`const { x } = require('./m')`) stands for what it imports, as its uses do.
      return this.throughImport(origin, usage, family, own, qualifier) ?? [own];
    }
    const { receiver } = usage;
    if (receiver === undefined) {
      const lexical = this.lexical(origin, usage, family, qualifier);
      if (lexical.length > 0) return this.throughImport(origin, usage, family, lexical[0]!, qualifier) ?? lexical;
      // Java and C++ see inherited members bare too.
      if (membersVisibleBare(family)) {
        const inherited = this.enclosingMembers(origin, usage, qualifier, true);
        if (inherited.length > 0) return inherited;
      }
    } else if (isSelfReceiver(receiver)) {
      const members = this.enclosingMembers(origin, usage, qualifier);
      if (members.length > 0) return members;
    } else {
      const typed = this.typedMembers(origin, usage, qualifier);
      if (typed.length > 0) return typed;
      const global = scriptGlobalReceiver(origin.symbols, receiver, this.receiverBinding(origin, usage) !== null);
      if (global !== null) return this.globalMembers(origin, global, usage.name, qualifier);
    }
    const key = `${origin.repo}\0${origin.path}\0${usage.name}\0${receiver ?? '\u0001'}\0${qualifier ?? ''}`;
    let wide = this.wideMemo.get(key);
    if (wide === undefined) {
      // A receiver names a module or a type as often as a variable: it ranks like a qualifier.
      wide = this.wide(origin, usage, family, qualifier ?? (receiver === '' ? undefined : receiver));
      this.wideMemo.set(key, wide);
    }
    return wide;
  }

  /** Walks the scope chain outwards; the first scope declaring the name wins. */
  private lexical(origin: NavFile, usage: Usage, family: LanguageFamily, qualifier: string | undefined): RankedDefinition[] {
    const defs = origin.symbols.definitions;
    const seen = new Set<number>();
    for (let scope = usage.scope; ; scope = defs[scope]!.parent) {
      const container = scope >= 0 ? defs[scope]! : null;
      if (container === null || !isContainer(container) || membersVisibleBare(family)) {
        const hits = [...childrenNamed(defs, scope, usage.name).filter((i) => bareVisible(defs[i]!, family)), ...parameterProperties(defs, scope, usage.name)].sort((a, b) => a - b);
        if (hits.length > 0) {
          const index = nearestPreceding(defs, hits, usage.line);
          return [rankSite(origin, { file: origin, index, definition: defs[index]! }, scope >= 0 ? 'local' : 'file', qualifier)];
        }
      }
      if (scope < 0 || seen.has(scope)) return [];
      seen.add(scope);
    }
  }

  /**
   * A binding that is an import (`const { x } = require('./m')`) stands for what the module
   * defines: followed there, or nothing when the module is a package no indexed repository holds.
   * Null keeps the binding itself (a module that defines no such name).
   */
  private throughImport(origin: NavFile, usage: Usage, family: LanguageFamily, binding: RankedDefinition, qualifier: string | undefined): RankedDefinition[] | null {
    const { file, definition } = binding.site;
    if (file !== origin) return null;
    const imported = importBindingAt(origin.symbols, usage.name, definition.nameRange.startLine);
    if (imported === undefined) return null;
    const found = importCandidates(this.lookup, origin, { name: usage.name, scope: -1, line: imported.range.startLine }, family);
    if (found.sites.length > 0) return sortCandidates(this.named(origin, found, qualifier));
    return namesPackage(family, imported.source) ? [] : null;
  }

  /**
   * `this.x` / `self.x`: a member of the innermost enclosing class, or (a Rust method, whose `impl`
   * is no class) of the type the enclosing method is declared on. `outward`: a bare name in Java or
   * C++, which sees the members of enclosing classes too, when the innermost has none of the name.
   */
  private enclosingMembers(origin: NavFile, usage: Usage, qualifier: string | undefined, outward = false): RankedDefinition[] {
    const defs = origin.symbols.definitions;
    const seen = new Set<number>();
    for (let scope = usage.scope; scope >= 0 && !seen.has(scope); scope = defs[scope]!.parent) {
      seen.add(scope);
      const definition = defs[scope]!;
      if (definition.kind === 'method' && definition.type !== undefined) {
        const typed = this.declaredTypes({ file: origin, index: scope, definition }).flatMap((type) => this.membersOf(type, usage.name));
        // A constructor function is no class: its members are the ones declared apart on it in the file (`X.prototype.m = …`).
        const members = typed.length > 0 ? typed : declaredApartIn(origin, definition.type, usage.name);
        return members.map((site) => rankSite(origin, site, 'typed', qualifier));
      }
      // `this.x` in a constructor function means the members declared on it apart (`Fn.prototype.x = …`).
      const apart = definition.kind === 'function' ? declaredApartIn(origin, definition.name, usage.name) : [];
      if (apart.length > 0) return apart.map((site) => rankSite(origin, site, 'typed', qualifier));
      if (!isContainer(definition)) continue;
      const own = childrenNamed(defs, scope, usage.name).map((index) => rankSite(origin, { file: origin, index, definition: defs[index]! }, 'local', qualifier));
      if (own.length > 0) return own;
      const inherited = this.inheritedMembers({ file: origin, index: scope, definition: defs[scope]! }, usage.name).map((site) => rankSite(origin, site, 'typed', qualifier));
      if (inherited.length > 0 || !outward) return inherited;
    }
    return [];
  }

  /** Members of the name in the classes a class extends, nearest first (`extends B`, `class A(B)`). */
  private inheritedMembers(type: DefinitionSite, name: string): DefinitionSite[] {
    const seen = new Set<string>();
    for (let at: DefinitionSite | undefined = this.superclassOf(type); at !== undefined && seen.size < MAX_SUPERCLASSES; at = this.superclassOf(at)) {
      const key = siteKey(at);
      if (seen.has(key)) return [];
      seen.add(key);
      const members = this.ownMembers(at, name);
      if (members.length > 0) return members;
    }
    return [];
  }

  /** The class a class extends (the type a Go struct embeds), when the code names it and it is found. */
  private superclassOf(type: DefinitionSite): DefinitionSite | undefined {
    return this.declaredTypes(type).find((site) => siteKey(site) !== siteKey(type));
  }

  /**
   * `x.name` where x is declared with a type (`x: App`, `x *Router`, `this.app` a field typed App):
   * the type's members of that name, its own or inherited. Nothing when x has no declared type, the
   * type is not found, or it has no such member, so the usage falls back to matching by name.
   */
  private typedMembers(origin: NavFile, usage: Usage, qualifier: string | undefined): RankedDefinition[] {
    const binding = this.receiverBinding(origin, usage);
    if (binding === null) return [];
    const found: RankedDefinition[] = [];
    for (const type of this.declaredTypes(binding)) {
      for (const member of this.membersOf(type, usage.name)) found.push(rankSite(origin, member, 'typed', qualifier));
    }
    return sortCandidates(found);
  }

  /**
   * The types a definition is declared with, looked up where its declaration is written. A type
   * written as another variable (`self.app = app`, app annotated) is that variable's type.
   */
  private declaredTypes(binding: DefinitionSite): DefinitionSite[] {
    // Looking a type up can look up another class's base (nested classes see inherited members):
    // code whose classes extend each other in a circle must not recurse without end.
    if (this.typeLookups >= MAX_TYPE_LOOKUPS) return [];
    this.typeLookups++;
    try {
      return this.declaredTypesOf(binding);
    } finally {
      this.typeLookups--;
    }
  }

  private declaredTypesOf(binding: DefinitionSite): DefinitionSite[] {
    for (let at = binding, hops = 0; hops < MAX_TYPE_HOPS; hops++) {
      const { file, index, definition } = at;
      if (definition.type === undefined) return [];
      const scope = scopeOfDeclaration(file.symbols, index);
      const top = topTier(this.resolve(file, { name: definition.type, scope, line: definition.nameRange.startLine }));
      const types = top.filter((c) => isContainer(c.site.definition)).map((c) => c.site);
      if (types.length > 0) return types;
      const next = top[0]?.site;
      if (next === undefined || siteKey(next) === siteKey(at)) return [];
      at = next;
    }
    return [];
  }

  /** The definition a receiver names: a local or file-level variable, or a field through `this`/`self`. */
  private receiverBinding(origin: NavFile, usage: Usage): DefinitionSite | null {
    const receiver = usage.receiver!;
    const field = /^(?:this|self)\.([A-Za-z_$][\w$]*)$/.exec(receiver);
    if (field !== null) {
      const member = this.enclosingMembers(origin, { ...usage, name: field[1]!, receiver: 'this' }, undefined)[0];
      return member?.site ?? null;
    }
    if (!/^[A-Za-z_$][\w$]*$/.test(receiver)) return null;
    // The receiver is a bare name used where the usage is: bound by the same scope rules.
    const family = familyOf(origin.symbols.language);
    return this.lexical(origin, { name: receiver, scope: usage.scope, line: usage.line }, family, undefined)[0]?.site ?? null;
  }

  /**
   * `Symbol.x` with Symbol the language's global: the members the repository declares onto it
   * (`declare global { interface SymbolConstructor { x } }`); none means the language's own, outside.
   */
  private globalMembers(origin: NavFile, global: string, name: string, qualifier: string | undefined): RankedDefinition[] {
    const found: RankedDefinition[] = [];
    for (const typeName of augmentedInterfaces(global)) {
      for (const ref of this.lookup.filesDefining(typeName)) {
        if (ref.repo !== origin.repo) continue;
        const file = this.lookup.file(ref);
        file?.symbols.definitions.forEach((definition, index) => {
          if (definition.name !== typeName || definition.kind !== 'interface') return;
          for (const member of this.ownMembers({ file, index, definition }, name)) found.push(rankSite(origin, member, 'typed', qualifier));
        });
      }
    }
    return sortCandidates(found);
  }

  /** A type's members of the name: its own, else those of the classes it extends. */
  private membersOf(type: DefinitionSite, name: string): DefinitionSite[] {
    const own = this.ownMembers(type, name);
    return own.length > 0 ? own : this.inheritedMembers(type, name);
  }

  /** A type's own members of the name: declared in its body, or (Go, Rust) methods declared on the type apart from it, in its directory. */
  private ownMembers(type: DefinitionSite, name: string): DefinitionSite[] {
    const { file, index, definition } = type;
    const members: DefinitionSite[] = [];
    file.symbols.definitions.forEach((d, i) => {
      if (d.parent === index && d.name === name) members.push({ file, index: i, definition: d });
    });
    if (members.length > 0 || !methodsDeclaredApart(familyOf(file.symbols.language))) return members;
    for (const ref of this.lookup.filesDefining(name)) {
      if (ref.repo !== file.repo || dirOf(ref.path) !== dirOf(file.path)) continue;
      const other = this.lookup.file(ref);
      other?.symbols.definitions.forEach((d, i) => {
        if (d.name === name && d.kind === 'method' && d.type === definition.name) members.push({ file: other, index: i, definition: d });
      });
    }
    return members;
  }

  private wide(origin: NavFile, usage: Usage, family: LanguageFamily, qualifier: string | undefined): RankedDefinition[] {
    const imported = importCandidates(this.lookup, origin, usage, family);
    if (imported.bound) return sortCandidates(this.named(origin, imported, qualifier));
    const found: RankedDefinition[] = [];
    const defs = origin.symbols.definitions;
    if (usage.receiver !== undefined) {
      // Through a variable of unknown type (koa's `ctx.x`), the file's own members are a guess like
      // any other file's, nearer only by place: the receiver's name may point elsewhere (rank.ts).
      const certainty: Certainty = usage.receiver === '' || isSelfReceiver(usage.receiver) ? 'file' : 'repo-exported';
      defs.forEach((definition, index) => {
        if (definition.name === usage.name && isMember(origin, definition)) found.push(rankSite(origin, { file: origin, index, definition }, certainty, qualifier));
      });
    }
    found.push(...this.named(origin, imported, qualifier));
    if (found.some((c) => c.certainty === 'import')) return sortCandidates(found);
    const all = this.elsewhere(origin, usage, qualifier);
    // Shared by a directory's files, so it may hold this file's own definitions: those bind lexically, not here.
    const elsewhere = all.some((c) => c.site.file.path === origin.path && c.site.file.repo === origin.repo)
      ? all.filter((c) => c.site.file.path !== origin.path || c.site.file.repo !== origin.repo)
      : all;
    return found.length === 0 ? elsewhere : sortCandidates([...found, ...elsewhere]);
  }

  /**
   * Definitions of the name reachable from other files, sorted. Scores read only the origin's
   * repository and directory, so every file of a directory shares one list (find_references
   * resolves a name in thousands of files), and the definitions are gathered once for them all.
   */
  private elsewhere(origin: NavFile, usage: Usage, qualifier: string | undefined): RankedDefinition[] {
    const family = familyOf(origin.symbols.language);
    const key = `${origin.repo}\0${dirOf(origin.path)}\0${usage.name}\0${usage.receiver ?? '\u0001'}\0${qualifier ?? ''}\0${family}`;
    const known = this.elsewhereMemo.get(key);
    if (known !== undefined) return known;
    const found: RankedDefinition[] = [];
    for (const { site, visible, score } of this.reachable(usage, qualifier, family)) {
      const sameRepo = site.file.repo === origin.repo;
      if (!sameRepo && !visible) continue;
      // An invisible C definition (a macro in another .c file) stays as the last resort.
      const certainty: Certainty = sameRepo ? (visible ? 'repo-exported' : 'repo') : 'other-repo';
      found.push({ site, certainty, score: score + placeScore(origin.repo, origin.path, site) });
    }
    // One entry per definition already: sorting is all that is left.
    const sorted = found.sort(compareRanked);
    this.elsewhereMemo.set(key, sorted);
    return sorted;
  }

  /** The definitions of the name other files can reach, each with the part of its score that is its own. */
  private reachable(usage: Usage, qualifier: string | undefined, family: LanguageFamily): readonly Reachable[] {
    const key = `${usage.name}\0${usage.receiver === undefined ? 'bare' : 'member'}\0${qualifier ?? ''}\0${family}`;
    let found = this.reachableMemo.get(key);
    if (found !== undefined) return found;
    found = [];
    for (const ref of this.lookup.filesDefining(usage.name)) {
      const file = this.lookup.file(ref);
      // A C use never means a JavaScript definition: names cross files, not languages.
      if (file === null || !sameFamily(family, familyOf(file.symbols.language))) continue;
      file.symbols.definitions.forEach((definition, index) => {
        if (definition.name !== usage.name || !reachableFromOutside(file, definition, usage)) return;
        const site = { file, index, definition };
        // `x.name` with x not a module: a member is likelier than a same-named free function.
        const memberBonus = usage.receiver !== undefined && isMember(file, definition) ? 1 : 0;
        found!.push({ site, visible: visibleAcrossFiles(file, definition) || reachedThroughObject(file, definition, usage), score: siteScore(site, qualifier) + memberBonus });
      });
    }
    this.reachableMemo.set(key, found);
    return found;
  }

  /** The definitions an import-resolution step located, as 'import' candidates. */
  private named(origin: NavFile, imported: ReturnType<typeof importCandidates>, qualifier: string | undefined): RankedDefinition[] {
    return imported.sites.map((site) => rankSite(origin, site, 'import', qualifier));
  }
}

/** The file's file-level members named `name` declared on `type` apart from it (`Type.prototype.name = …`). */
function declaredApartIn(file: NavFile, type: string, name: string): DefinitionSite[] {
  const out: DefinitionSite[] = [];
  file.symbols.definitions.forEach((definition, index) => {
    if (definition.parent === -1 && definition.name === name && definition.type === type && MEMBER_KINDS.has(definition.kind)) out.push({ file, index, definition });
  });
  return out;
}

/**
 * A constructor's parameter properties of the name (TypeScript `constructor(private app: App)`):
 * fields of its class, and parameters its body sees bare. Told apart from a field the body assigns
 * (`this.x = …`, whose span is its name) by their declaration span inside the constructor's.
 */
function parameterProperties(defs: readonly SymbolDefinition[], scope: number, name: string): number[] {
  const constructor = scope >= 0 ? defs[scope]! : null;
  if (constructor === null || constructor.kind !== 'constructor') return [];
  return childrenNamed(defs, constructor.parent, name).filter((i) => {
    const { kind, range, nameRange } = defs[i]!;
    return kind === 'field' && !sameRange(range, nameRange) && within(range, constructor.range);
  });
}

/**
 * Of several declarations in one scope, the last one before the usage (else the first). A use in a
 * variable's own initializer (`hooks = [hooks]`) means the binding before it.
 */
function nearestPreceding(defs: readonly SymbolDefinition[], hits: readonly number[], line: number): number {
  let best = -1;
  for (const i of hits) {
    const { nameRange, range, kind } = defs[i]!;
    if (nameRange.startLine > line) break;
    const initializing = (kind === 'variable' || kind === 'constant') && range.startLine <= line && line <= range.endLine;
    if (!initializing) best = i;
  }
  return best >= 0 ? best : hits[0]!;
}
