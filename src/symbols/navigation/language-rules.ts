/**
 * The few facts about languages that name resolution needs: which family a language id belongs to,
 * whether class members are in scope without a receiver, and what a package or a linker shares.
 */
import { MEMBER_KINDS } from '../language-spec.js';
import type { SymbolDefinition, SymbolKind } from '../../model/symbols.js';
import type { NavFile } from './model.js';

export type LanguageFamily = 'js' | 'python' | 'go' | 'rust' | 'jvm' | 'c' | 'other';

const FAMILIES: Readonly<Record<string, LanguageFamily>> = {
  typescript: 'js', tsx: 'js', javascript: 'js', jsx: 'js',
  python: 'python',
  go: 'go',
  rust: 'rust',
  java: 'jvm', kotlin: 'jvm', scala: 'jvm',
  c: 'c', cpp: 'c', 'c++': 'c', objectivec: 'c', 'objective-c': 'c', cuda: 'c',
};

export function familyOf(language: string): LanguageFamily {
  return FAMILIES[language.toLowerCase()] ?? 'other';
}

const CONTAINER_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'enum', 'type', 'namespace', 'module']);
const CALLABLE_KINDS: ReadonlySet<SymbolKind> = new Set(['function', 'method', 'constructor']);

export function isContainer(definition: SymbolDefinition): boolean {
  return CONTAINER_KINDS.has(definition.kind);
}

export function isCallable(definition: SymbolDefinition): boolean {
  return CALLABLE_KINDS.has(definition.kind);
}

/** A class member, or a method declared at file level (Go, C++ out of line): reached through a receiver. */
export function isMemberDefinition(definitions: readonly SymbolDefinition[], definition: SymbolDefinition): boolean {
  const parent = definition.parent >= 0 ? definitions[definition.parent] : undefined;
  return parent === undefined ? MEMBER_KINDS.has(definition.kind) : isContainer(parent);
}

/**
 * Java and C++ methods see their class's members by bare name; JavaScript, Python, Rust and Go need
 * `this`/`self`/a receiver, so there a bare name skips class members and binds further out.
 */
export function membersVisibleBare(family: LanguageFamily): boolean {
  return family === 'jvm' || family === 'c';
}

/** Go and Java files see their package's declarations (same directory) without an import. */
export function directoryIsPackage(family: LanguageFamily): boolean {
  return family === 'go' || family === 'jvm';
}

/** Languages whose symbol tables carry declared types (language specs' `@type`): a receiver there may resolve through its type. */
export function declaresTypes(family: LanguageFamily): boolean {
  return family === 'go' || family === 'jvm' || family === 'js' || family === 'python' || family === 'rust';
}

/** Go and Rust declare methods outside their type's body (`func (r *T) m()`, `impl T { fn m() }`): the method's declared type says whose it is. */
export function methodsDeclaredApart(family: LanguageFamily): boolean {
  return family === 'go' || family === 'rust';
}

/** A receiver that may be a typed variable or field: `x`, `this.x`, `self.x`. */
export function mayBeTyped(receiver: string | undefined): boolean {
  return receiver !== undefined && !isSelfReceiver(receiver) && /^(?:(?:this|self)\.)?[A-Za-z_$][\w$]*$/.test(receiver);
}

/** Receivers that mean "the enclosing class". */
export function isSelfReceiver(receiver: string): boolean {
  return receiver === 'this' || receiver === 'self' || receiver === 'super' || receiver === 'cls' || receiver === 'Self';
}

const HEADER = /\.(h|hh|hpp|hxx|h\+\+|inc)$/i;

/** C family: a header declares what a source file defines; navigation prefers the definition. */
export function isHeader(path: string): boolean {
  return HEADER.test(path);
}

/**
 * C family: a source file shares with other files only what the linker resolves, its non-static
 * functions and variables (C++ member functions defined out of their class included). Its macros,
 * types and enumerators end with the file, and a class body in it is that file's alone.
 */
export function linkedFromOutside(definition: SymbolDefinition, parent: SymbolDefinition | undefined): boolean {
  if (!definition.exported) return false;
  if (definition.kind === 'function' || definition.kind === 'variable') return true;
  return (definition.kind === 'method' || definition.kind === 'constructor') && (parent === undefined || parent.kind === 'namespace');
}

/**
 * Whether another file of the program can use the definition. In C a header is included, so all
 * of it is seen (`static inline` functions and macros too); a source file is seen through the
 * linker only. Elsewhere the language's own export rule (`exported`) says it.
 */
export function visibleAcrossFiles(file: NavFile, definition: SymbolDefinition): boolean {
  if (familyOf(file.symbols.language) !== 'c') return definition.exported;
  return isHeader(file.path) || linkedFromOutside(definition, parentOf(file, definition));
}

export function parentOf(file: NavFile, definition: SymbolDefinition): SymbolDefinition | undefined {
  return definition.parent >= 0 ? file.symbols.definitions[definition.parent] : undefined;
}
