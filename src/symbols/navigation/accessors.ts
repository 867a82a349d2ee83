/** Accessor pairs in navigation: an assignment to a property goes to its setter, and `this.x = …` beside an accessor is a use of it, not a field. */
import type { SymbolDefinition } from '../../model/symbols.js';
import { childrenNamed, childrenOf, sameRange } from './definition-tree.js';
import type { NavFile, RankedDefinition, Usage } from './model.js';

/**
 * `this.x = …` in a class whose x is an accessor (`get x()`/`set x(v)`) sets the property through
 * its setter rather than declaring a field: the usage it is, as a member use through `this`. Null
 * for any other usage.
 */
export function assignedAccessor(origin: NavFile, usage: Usage): Usage | null {
  if (usage.self === undefined) return null;
  const defs = origin.symbols.definitions;
  const definition = defs[usage.self]!;
  if (!isAssignedField(definition) || !childrenNamed(defs, definition.parent, definition.name).some((i) => defs[i]!.kind === 'method')) return null;
  return { name: usage.name, scope: definition.parent, line: usage.line, receiver: 'this', assigned: true };
}

/** A field declared by assigning it (`this.x = …`, `self.x = …`): its span is its name. */
function isAssignedField(definition: SymbolDefinition): boolean {
  return definition.kind === 'field' && sameRange(definition.range, definition.nameRange);
}

/**
 * Of an accessor pair (two same-named methods of one class or object: `get x()`/`set x(v)`, a Python
 * property and its setter), an assignment means the setter, the one taking more parameters; a field
 * the class only assigns beside them is the setter's use, not a definition. Other candidates, and
 * other uses, are left as they are.
 */
export function preferAccessor(candidates: RankedDefinition[], usage: Usage): RankedDefinition[] {
  // Elsewhere the first declared wins, as for overloads: a getter is declared before its setter.
  if (usage.assigned !== true) return candidates;
  const pairs = new Map<string, RankedDefinition[]>();
  for (const c of candidates) {
    const { file, definition } = c.site;
    if (definition.kind !== 'method') continue;
    const key = `${file.repo}\0${file.path}\0${definition.parent}`;
    pairs.set(key, [...(pairs.get(key) ?? []), c]);
  }
  const preferred = new Set<RankedDefinition>();
  const containers = new Set<string>();
  for (const [key, methods] of pairs) {
    if (methods.length < 2) continue;
    containers.add(key);
    const arity = (c: RankedDefinition): number => headerParameters(c.site.file.symbols.definitions, c.site.index);
    preferred.add(methods.reduce((best, c) => (arity(c) > arity(best) ? c : best)));
  }
  if (preferred.size === 0) return candidates;
  return candidates
    .filter((c) => !(isAssignedField(c.site.definition) && containers.has(`${c.site.file.repo}\0${c.site.file.path}\0${c.site.definition.parent}`)))
    .map((c) => (preferred.has(c) ? { ...c, score: c.score + 1 } : c));
}

/** The parameters a function or method declares on the line of its name. */
function headerParameters(defs: readonly SymbolDefinition[], index: number): number {
  const line = defs[index]!.nameRange.startLine;
  return childrenOf(defs, index).filter((i) => defs[i]!.kind === 'variable' && defs[i]!.nameRange.startLine === line).length;
}
