/** What a reference sits in, said the way a reader names it: `in method Router.handle`, `at file level`. */
import type { SymbolDefinition } from '../../../model/symbols.js';
import { isCallable, isContainer } from '../../../symbols/navigation/language-rules.js';

/** From the reference's innermost enclosing definition outwards, the first function, method or type. */
export function enclosingSymbol(definitions: readonly SymbolDefinition[], scope: number): string {
  const seen = new Set<number>();
  for (let at = scope; at >= 0 && at < definitions.length && !seen.has(at); at = definitions[at]!.parent) {
    seen.add(at);
    const definition = definitions[at]!;
    if (!isCallable(definition) && !isContainer(definition)) continue;
    const parent = definition.parent >= 0 ? definitions[definition.parent] : undefined;
    const owner = parent !== undefined && isContainer(parent) && isCallable(definition) ? `${parent.name}.` : '';
    return `in ${definition.kind} ${owner}${definition.name}`;
  }
  return 'at file level';
}
