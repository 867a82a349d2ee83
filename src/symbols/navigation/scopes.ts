/** Which definition of a file encloses a place in it: the scope a name used there is looked up from. */
import type { FileSymbols } from '../../model/symbols.js';
import { within } from './definition-tree.js';

/** The innermost definition whose body holds the line: the scope a name used there is looked up from. */
export function scopeAtLine(symbols: FileSymbols, line: number): number {
  let best = -1;
  symbols.definitions.forEach((d, i) => {
    if (d.range.startLine <= line && line <= d.range.endLine && (best < 0 || within(d.range, symbols.definitions[best]!.range))) best = i;
  });
  return best;
}

/**
 * The innermost other definition whose body holds a definition's name: where the names written in
 * its declaration are looked up (a parameter's type in its function, `self.x = x` in `__init__`, a
 * class's base outside the class). Unlike the definition's parent, a field a method assigns is
 * placed in that method, not in its class.
 */
export function scopeOfDeclaration(symbols: FileSymbols, index: number): number {
  const { nameRange } = symbols.definitions[index]!;
  let best = -1;
  symbols.definitions.forEach((d, i) => {
    if (i === index || !within(nameRange, d.range) || within(d.range, nameRange)) return;
    if (best < 0 || within(d.range, symbols.definitions[best]!.range)) best = i;
  });
  return best;
}
