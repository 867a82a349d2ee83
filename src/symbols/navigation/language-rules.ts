/**
 * The few facts about languages that name resolution needs: which family a language id belongs to,
 * whether class members are in scope without a receiver, and what a package or a linker shares.
 */
import type { SymbolDefinition, SymbolKind } from '../../model/symbols.js';

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

/** Receivers that mean "the enclosing class". */
export function isSelfReceiver(receiver: string): boolean {
  return receiver === 'this' || receiver === 'self' || receiver === 'super' || receiver === 'cls' || receiver === 'Self';
}

const HEADER = /\.(h|hh|hpp|hxx|h\+\+|inc)$/i;

/** C family: a header declares what a source file defines; navigation prefers the definition. */
export function isHeader(path: string): boolean {
  return HEADER.test(path);
}
