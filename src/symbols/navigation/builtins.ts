/**
 * The language's own global objects as receivers: `Symbol.iterator` is a member of JavaScript's
 * Symbol, not a same-named member of the repository (a `this.iterator` field, an exported
 * `iterator` constant), unless the repository declares it onto that global itself
 * (`declare global { interface SymbolConstructor { observable: symbol } }`).
 */
import type { FileSymbols } from '../../model/symbols.js';
import { familyOf } from './language-rules.js';

/** ECMAScript's global objects, and the few Node adds, that code reaches members of by their own name. */
const SCRIPT_GLOBALS: ReadonlySet<string> = new Set([
  'Symbol', 'Object', 'Array', 'Math', 'JSON', 'Reflect', 'Promise', 'Number', 'String', 'Boolean', 'BigInt', 'Date',
  'RegExp', 'Error', 'Map', 'Set', 'WeakMap', 'WeakSet', 'Proxy', 'Intl', 'ArrayBuffer', 'Atomics', 'globalThis',
  'console', 'process', 'Buffer',
]);

/**
 * The global a receiver names, when it is one and the file binds no name of it (no import, no
 * declaration): the members reached through it are the language's. `bound` tells whether the
 * receiver is bound in the usage's scopes.
 */
export function scriptGlobalReceiver(symbols: FileSymbols, receiver: string | undefined, bound: boolean): string | null {
  if (receiver === undefined || bound || !SCRIPT_GLOBALS.has(receiver) || familyOf(symbols.language) !== 'js') return null;
  return symbols.imports.some((i) => i.localName === receiver) ? null : receiver;
}

/** The interfaces a TypeScript global augmentation adds a global's members to: `SymbolConstructor` for `Symbol.x`, `Array` for an array's. */
export function augmentedInterfaces(global: string): readonly string[] {
  return [`${global}Constructor`, global];
}
