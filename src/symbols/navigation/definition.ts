/**
 * go_to_definition's engine: reads the symbol as typed (`bar`, `Foo.bar`, `Foo::bar`), finds its
 * usages in the file, resolves each, and returns the surest definition with the others it could be.
 */
import type { FileSymbols, SourceRange, SymbolImport } from '../../model/symbols.js';
import { certaintyRank, siteKey, usageOfReference, type DefinitionSite, type NavFile, type RankedDefinition, type Usage } from './model.js';
import { scriptGlobalReceiver } from './builtins.js';
import { preferImplementation } from './declaration-files.js';
import { importBindingAt } from './import-candidates.js';
import { compareRanked, sortCandidates, topTier } from './rank.js';
import { scopeAtLine } from './scopes.js';
import { isMemberDefinition, isSelfReceiver } from './language-rules.js';
import type { Resolver } from './resolve.js';

export interface SymbolName {
  readonly name: string;
  /** `Foo` in `Foo.bar`: the container or receiver the caller named, a hint for ranking. */
  readonly qualifier?: string;
}

/** The last segment of a qualified name; call parentheses and generic arguments dropped. */
export function parseSymbolName(input: string): SymbolName | null {
  const cleaned = input.trim().replace(/\(.*\)$/s, '').replace(/<[^<>]*>$/, '');
  const parts = cleaned.split(/::|->|\.|#|\\/).map((p) => p.trim()).filter(Boolean);
  const name = parts.at(-1);
  if (name === undefined) return null;
  const qualifier = parts.at(-2);
  return qualifier === undefined ? { name } : { name, qualifier };
}

/**
 * Where the file mentions the name: its references with the qualifier as receiver when one is
 * given (`this.x`, `util.x`), else the file's own definitions of the name, else every reference
 * and import binding. When an import binds the name, its members and member uses are left out.
 */
export function usagesIn(symbols: FileSymbols, symbol: SymbolName): Usage[] {
  const references = symbols.references.filter((r) => r.name === symbol.name).map(usageOfReference);
  if (symbol.qualifier !== undefined) {
    const qualified = references.filter((u) => u.receiver === symbol.qualifier);
    if (qualified.length > 0) return qualified;
  }
  const own: Usage[] = [];
  symbols.definitions.forEach((d, index) => {
    if (d.name === symbol.name) own.push({ name: d.name, scope: d.parent, line: d.nameRange.startLine, self: index });
  });
  // An import binding the bare name says what the file means by it: its members are asked for with their receiver.
  const imported = symbol.qualifier === undefined && symbols.imports.some((i) => i.localName === symbol.name);
  const bareOwn = imported ? own.filter((u) => !isMemberDefinition(symbols.definitions, symbols.definitions[u.self!]!)) : own;
  if (bareOwn.length > 0) return bareOwn;
  for (const i of symbols.imports) if (i.localName === symbol.name) references.push({ name: i.localName, scope: -1, line: i.range.startLine });
  return imported ? references.filter((u) => u.receiver === undefined) : references;
}

/** Where the caller points: a 1-based line (as read_file numbers lines) and optional 1-based column. */
export interface UsagePosition {
  readonly line: number;
  readonly column?: number;
}

/**
 * The occurrence of the name at the position: a reference, the name's own definition, or an import
 * binding on that line (at the column when given). Null when the tables hold none there.
 */
export function usageAt(symbols: FileSymbols, name: string, position: UsagePosition): Usage | null {
  const line = position.line - 1;
  const column = position.column === undefined ? undefined : position.column - 1;
  const covers = (r: SourceRange): boolean => r.startLine === line && (column === undefined || (r.startColumn <= column && column < Math.max(r.endColumn, r.startColumn + 1)));
  const reference = symbols.references.find((r) => r.name === name && covers(r.range));
  if (reference !== undefined) return usageOfReference(reference);
  const self = symbols.definitions.findIndex((d) => d.name === name && covers(d.nameRange));
  if (self >= 0) return { name, scope: symbols.definitions[self]!.parent, line, self };
  const imported = importBindingAt(symbols, name, line);
  if (imported !== undefined) return { name, scope: -1, line: imported.range.startLine };
  return null;
}

export interface DefinitionAnswer {
  readonly best: RankedDefinition;
  /** Other definitions as sure as the best: the usage alone cannot tell them apart. */
  readonly alternatives: readonly RankedDefinition[];
  /** False when the file does not mention the name and the definition was found by name alone. */
  readonly fromUsage: boolean;
  /** Without a position: the file's distinct local bindings its occurrences resolve to, when more than one. */
  readonly bindings: readonly DefinitionSite[];
  /** A member matched by its name through this receiver, whose type the code does not write down: a guess. */
  readonly guessedThrough?: string;
}

/** The language global (`Symbol` of `Symbol.iterator`) the occurrence is a member of, when it is one the file does not bind. */
export function builtinOwner(symbols: FileSymbols, symbol: SymbolName, position?: UsagePosition): string | null {
  const receiver = position === undefined ? symbol.qualifier : usageAt(symbols, symbol.name, position)?.receiver;
  return scriptGlobalReceiver(symbols, receiver, symbols.definitions.some((d) => d.name === receiver));
}

/** The import that brings the name into the file, when resolution found no definition: the name is defined outside. */
export function importOfName(symbols: FileSymbols, name: string): SymbolImport | undefined {
  return symbols.imports.find((i) => i.localName === name);
}

/**
 * With a position, the occurrence there is resolved alone (shadowing and closures included); a
 * position the tables hold no occurrence at is looked up from the scope enclosing its line. Without
 * one, the file's own file-level definition, else the binding most of its uses resolve to.
 * A definition in a declaration file (`.d.ts`) gives way to its implementation when one is indexed.
 */
export function findDefinition(resolver: Resolver, origin: NavFile, symbol: SymbolName, position?: UsagePosition): DefinitionAnswer | null {
  const answer = findDeclared(resolver, origin, symbol, position);
  // A declaration file's definition stands for the code it describes, when the index holds that code.
  return answer === null ? null : { ...answer, best: preferImplementation(resolver.lookup, origin, answer.best) };
}

function findDeclared(resolver: Resolver, origin: NavFile, symbol: SymbolName, position?: UsagePosition): DefinitionAnswer | null {
  if (position !== undefined) {
    const usage = usageAt(origin.symbols, symbol.name, position)
      ?? { name: symbol.name, scope: scopeAtLine(origin.symbols, position.line - 1), line: position.line - 1, ...(symbol.qualifier === undefined ? {} : { receiver: symbol.qualifier }) };
    const candidates = sortCandidates(resolver.resolve(origin, usage, symbol.qualifier));
    const best = candidates[0];
    if (best === undefined) return null;
    const answer = { best, alternatives: topTier(candidates).slice(1), fromUsage: true, bindings: [] };
    return guessedMember(usage, best) ? { ...answer, guessedThrough: usage.receiver! } : answer;
  }
  const declared = declaredDefinition(resolver, origin, symbol);
  // The file's own file-level definition (not a member) is what the bare name means there; else its uses decide.
  if (symbol.qualifier !== undefined || (declared !== null && isFileLevelOf(origin, declared.best.site))) return declared;
  const mostUsed = mostUsedBinding(resolver, origin, symbol.name);
  return mostUsed === undefined ? declared : mostUsed;
}

/** Without a position: the file's own definitions of the name first, else its uses, else the name looked up alone. */
function declaredDefinition(resolver: Resolver, origin: NavFile, symbol: SymbolName): DefinitionAnswer | null {
  const usages = usagesIn(origin.symbols, symbol);
  const fromUsage = usages.length > 0;
  // Not mentioned in the file: look the name up as if used with an unknown receiver, members included.
  if (!fromUsage) usages.push({ name: symbol.name, scope: -1, line: 0, receiver: symbol.qualifier ?? '' });
  const perUsage = usages.map((u) => resolver.resolve(origin, u, symbol.qualifier));
  const candidates = sortCandidates(perUsage.flat());
  const best = candidates[0];
  if (best === undefined) return null;
  return { best, alternatives: topTier(candidates).slice(1), fromUsage, bindings: localBindings(origin, perUsage) };
}

/** The distinct local definitions (inside a function or class of the file) the occurrences resolve to, in file order: more than one means the name is ambiguous without a line. */
function localBindings(origin: NavFile, perUsage: readonly (readonly RankedDefinition[])[]): DefinitionSite[] {
  const found = new Map<string, DefinitionSite>();
  for (const candidates of perUsage) {
    const top = sortCandidates(candidates)[0]?.site;
    if (top !== undefined && top.file.path === origin.path && top.file.repo === origin.repo && top.definition.parent >= 0) found.set(siteKey(top), top);
  }
  if (found.size < 2) return [];
  return [...found.values()].sort((a, b) => a.definition.nameRange.startLine - b.definition.nameRange.startLine);
}

/** Past this many uses of the name in the file, every n-th is resolved: enough to see which binding most of them mean. */
const MAX_TALLIED_USES = 256;

/**
 * Without a position, the definition most of the file's uses of the name resolve to: the likeliest
 * meaning of an occurrence the caller did not point at (a parameter used throughout one function
 * rather than the first of several same-named locals, an import used throughout rather than a local
 * of one function). Null when most resolve to nothing and an import binds the name: it is defined
 * outside. Undefined when the file binds the name nowhere or has no use that names its definition.
 */
function mostUsedBinding(resolver: Resolver, origin: NavFile, name: string): DefinitionAnswer | null | undefined {
  // A file that binds the name nowhere resolves its bare uses alike: nothing to tell apart.
  if (!origin.symbols.definitions.some((d) => d.name === name)) return undefined;
  const imported = origin.symbols.imports.some((i) => i.localName === name);
  const uses = origin.symbols.references.filter((r) => r.name === name && (!imported || r.receiver === undefined));
  if (uses.length === 0) return undefined;
  const step = Math.ceil(uses.length / MAX_TALLIED_USES);
  const tally = new Map<string, { count: number; candidates: RankedDefinition[] }>();
  let outside = 0;
  const perUsage: RankedDefinition[][] = [];
  for (let i = 0; i < uses.length; i += step) {
    const usage = usageOfReference(uses[i]!);
    const candidates = sortCandidates(resolver.resolve(origin, usage));
    perUsage.push(candidates);
    const best = candidates[0];
    if (best !== undefined && !boundUse(usage, best)) continue;
    if (best === undefined) {
      outside++;
      continue;
    }
    const key = siteKey(best.site);
    const seen = tally.get(key);
    if (seen === undefined) tally.set(key, { count: 1, candidates });
    else seen.count++;
  }
  let winner: { count: number; candidates: RankedDefinition[] } | undefined;
  for (const entry of tally.values()) {
    if (winner === undefined || entry.count > winner.count || (entry.count === winner.count && compareRanked(entry.candidates[0]!, winner.candidates[0]!) < 0)) winner = entry;
  }
  if (winner === undefined || (imported && outside > winner.count)) return imported ? null : undefined;
  const best = winner.candidates[0]!;
  return { best, alternatives: topTier(winner.candidates).slice(1), fromUsage: true, bindings: localBindings(origin, perUsage) };
}

/** A use that names its definition: bare (scopes, imports, the package), or a member through `this`/`self`, an import or a declared type; `x.name` with x of unknown type is a guess by name. */
function boundUse(usage: Usage, best: RankedDefinition): boolean {
  return usage.receiver === undefined || isSelfReceiver(usage.receiver) || best.certainty === 'typed' || best.certainty === 'import';
}

/** `x.name` with x a variable of unknown type, answered by a member found by its name alone. */
function guessedMember(usage: Usage, best: RankedDefinition): boolean {
  const { receiver } = usage;
  return receiver !== undefined && receiver !== '' && !isSelfReceiver(receiver) && certaintyRank(best.certainty) >= certaintyRank('repo-exported');
}

function isFileLevelOf(origin: NavFile, site: DefinitionSite): boolean {
  return site.file === origin && site.definition.parent === -1 && !isMemberDefinition(origin.symbols.definitions, site.definition);
}
