/**
 * go_to_definition's engine: reads the symbol as typed (`bar`, `Foo.bar`, `Foo::bar`), finds its
 * usages in the file, resolves each, and returns the surest definition with the others it could be.
 */
import type { FileSymbols } from '../../model/symbols.js';
import type { NavFile, RankedDefinition, Usage } from './model.js';
import { usageOfReference } from './model.js';
import { sortCandidates, topTier } from './rank.js';
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
 * and import binding.
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
  if (own.length > 0) return own;
  for (const i of symbols.imports) if (i.localName === symbol.name) references.push({ name: i.localName, scope: -1, line: i.range.startLine });
  return references;
}

export interface DefinitionAnswer {
  readonly best: RankedDefinition;
  /** Other definitions as sure as the best: the usage alone cannot tell them apart. */
  readonly alternatives: readonly RankedDefinition[];
  /** False when the file does not mention the name and the definition was found by name alone. */
  readonly fromUsage: boolean;
}

export function findDefinition(resolver: Resolver, origin: NavFile, symbol: SymbolName): DefinitionAnswer | null {
  const usages = usagesIn(origin.symbols, symbol);
  const fromUsage = usages.length > 0;
  // Not mentioned in the file: look the name up as if used with an unknown receiver, members included.
  if (!fromUsage) usages.push({ name: symbol.name, scope: -1, line: 0, receiver: symbol.qualifier ?? '' });
  const candidates = sortCandidates(usages.flatMap((u) => resolver.resolve(origin, u, symbol.qualifier)));
  const best = candidates[0];
  if (best === undefined) return null;
  return { best, alternatives: topTier(candidates).slice(1), fromUsage };
}
