/** Walking a file's definitions as the tree their parent indexes make, and comparing their source ranges. */
import type { SourceRange, SymbolDefinition } from '../../model/symbols.js';

/** The definitions directly under `parent` (-1: the file's top level) with the name. */
export function childrenNamed(defs: readonly SymbolDefinition[], parent: number, name: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < defs.length; i++) if (defs[i]!.parent === parent && defs[i]!.name === name) out.push(i);
  return out;
}

/** The definitions directly under `parent`, which come after it in the file's order. */
export function childrenOf(defs: readonly SymbolDefinition[], parent: number): number[] {
  const out: number[] = [];
  for (let i = parent + 1; i < defs.length; i++) if (defs[i]!.parent === parent) out.push(i);
  return out;
}

export function sameRange(a: SourceRange, b: SourceRange): boolean {
  return a.startLine === b.startLine && a.startColumn === b.startColumn && a.endLine === b.endLine && a.endColumn === b.endColumn;
}

export function within(inner: SourceRange, outer: SourceRange): boolean {
  const startsAfter = inner.startLine > outer.startLine || (inner.startLine === outer.startLine && inner.startColumn >= outer.startColumn);
  const endsBefore = inner.endLine < outer.endLine || (inner.endLine === outer.endLine && inner.endColumn <= outer.endColumn);
  return startsAfter && endsBefore;
}
