/**
 * TypeScript declaration files (`.d.ts`, `.d.mts`, `.d.cts`) describe what JavaScript or TypeScript
 * elsewhere implements: go_to_definition answers with the implementation when the index holds one
 * in the same repository (a declared class's member: the implementing class's member), and with the
 * declaration when nothing implements it (interfaces, types).
 */
import type { SymbolKind } from '../../model/symbols.js';
import { familyOf } from './language-rules.js';
import type { SymbolLookup } from './lookup.js';
import type { DefinitionSite, NavFile, RankedDefinition } from './model.js';
import { scoreSite } from './rank.js';

const DECLARATION_FILE = /\.d\.[cm]?ts$/;

/** What a declaration of each kind may be implemented as: a declared class by a class, `declare const` by any value. */
const VALUES: ReadonlySet<SymbolKind> = new Set(['variable', 'constant', 'function', 'class']);
const IMPLEMENTED_AS: ReadonlyMap<SymbolKind, ReadonlySet<SymbolKind>> = new Map<SymbolKind, ReadonlySet<SymbolKind>>([
  ['class', new Set(['class'])], ['function', new Set(['function'])], ['enum', new Set(['enum'])], ['variable', VALUES], ['constant', VALUES],
]);

export function isDeclarationFile(path: string): boolean {
  return DECLARATION_FILE.test(path);
}

/**
 * A declaration's implementation, best placed for the usage: a file-level definition of the same
 * name and a matching kind in a source file (not a declaration file) of the same repository.
 */
export function implementationOf(lookup: SymbolLookup, origin: NavFile, declaration: DefinitionSite): DefinitionSite | null {
  const { definition, file } = declaration;
  if (definition.parent !== -1) return memberImplementation(lookup, origin, declaration);
  const kinds = IMPLEMENTED_AS.get(definition.kind);
  if (kinds === undefined || definition.parent !== -1 || !isDeclarationFile(file.path)) return null;
  let best: DefinitionSite | null = null;
  let bestScore = -Infinity;
  for (const ref of lookup.filesDefining(definition.name)) {
    if (ref.repo !== file.repo || isDeclarationFile(ref.path)) continue;
    const candidate = lookup.file(ref);
    if (candidate === null || familyOf(candidate.symbols.language) !== 'js') continue;
    const defs = candidate.symbols.definitions;
    for (let index = 0; index < defs.length; index++) {
      const d = defs[index]!;
      if (d.name !== definition.name || d.parent !== -1 || !kinds.has(d.kind)) continue;
      const site = { file: candidate, index, definition: d };
      const score = scoreSite(origin, site, undefined);
      if (score > bestScore) [best, bestScore] = [site, score];
    }
  }
  return best;
}

/** The ranked definition with a declaration replaced by its implementation, keeping how sure it is. */
export function preferImplementation(lookup: SymbolLookup, origin: NavFile, ranked: RankedDefinition): RankedDefinition {
  const implementation = implementationOf(lookup, origin, ranked.site);
  return implementation === null ? ranked : { ...ranked, site: implementation };
}

/** What a declared member may be implemented as: a method by a method, a property by a field or an accessor. */
const MEMBERS_IMPLEMENTED_AS: ReadonlyMap<SymbolKind, ReadonlySet<SymbolKind>> = new Map<SymbolKind, ReadonlySet<SymbolKind>>([
  ['method', new Set(['method'])], ['property', new Set(['field', 'property', 'method'])], ['field', new Set(['field', 'property', 'method'])],
]);

/**
 * A member a declared class declares (`declare class Command { addArgument(…): this }`): the
 * same-named member of the class implementing it, first of its declarations.
 */
function memberImplementation(lookup: SymbolLookup, origin: NavFile, declaration: DefinitionSite): DefinitionSite | null {
  const { definition, file } = declaration;
  const kinds = MEMBERS_IMPLEMENTED_AS.get(definition.kind);
  const owner = file.symbols.definitions[definition.parent];
  if (kinds === undefined || owner === undefined || owner.kind !== 'class' || owner.parent !== -1 || !isDeclarationFile(file.path)) return null;
  const type = implementationOf(lookup, origin, { file, index: definition.parent, definition: owner });
  if (type === null) return null;
  const defs = type.file.symbols.definitions;
  const index = defs.findIndex((d) => d.parent === type.index && d.name === definition.name && kinds.has(d.kind));
  return index < 0 ? null : { file: type.file, index, definition: defs[index]! };
}
