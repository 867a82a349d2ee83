/**
 * What one language contributes to symbol extraction: its grammar, three tree-sitter queries, its
 * reference token types and its export rule. Capture names are the contract with the driver
 * (extract.ts); no tree walking here.
 *
 * definitions: `@name` on the name node, `@definition.<SymbolKind>` on the whole definition (the
 *   same node may carry both). When two patterns claim one name, the earlier pattern wins.
 *   `@export` on a name the file exports away from its declaration (`export { x }`): the file-level
 *   definitions of that name are exported. A field found in a method belongs to the method's class.
 *   A match of `@name` with `@type` (and no `@definition.*`) gives the definition named there its
 *   declared type (language's base name of the annotation, the receiver type of a Go method).
 * referenceTypes: named token types every occurrence of which is a reference (`identifier`…).
 * references:  member accesses: `@reference` on the member, `@receiver` on its object, `@assigned`
 *   on the member when it is an assignment's target (`a.b = …`: a setter's use, not a getter's).
 * imports:     `@source` (module as written), `@name` (imported name), `@alias` (its local name),
 *   `@default` (local name of a default import), `@namespace` (local name bound to the whole
 *   module), `@wildcard` (binds every name: local name `*`). Several `@source` captures in one
 *   match (a nested use list) are one path, joined by `sourceSeparator`.
 */
import type { SymbolKind } from '../model/symbols.js';

/** The slice of a tree-sitter node the export rules look at. */
export interface SyntaxNodeLike {
  readonly type: string;
  readonly text: string;
  readonly parent: SyntaxNodeLike | null;
  readonly namedChildren: readonly SyntaxNodeLike[];
  readonly children: readonly SyntaxNodeLike[];
}

export interface DefinitionContext {
  readonly node: SyntaxNodeLike;
  readonly name: string;
  readonly kind: SymbolKind;
  /** The enclosing definition, null at file level. */
  readonly parent: { readonly kind: SymbolKind; readonly exported: boolean } | null;
  /** Inside a function, method or constructor: a local, never visible outside the file. */
  readonly local: boolean;
}

export interface LanguageSpec {
  /** Quarry's canonical language name (query/languages.ts). */
  readonly language: string;
  /** npm package of the grammar, and the export holding it when the package has several. */
  readonly grammar: { readonly module: string; readonly member?: string };
  readonly definitions: string;
  /** Found by a tree walk, not a query: a query would make a node object per token. */
  readonly referenceTypes: readonly string[];
  readonly references: string;
  readonly imports: string;
  /**
   * Macros blanked out of the source before parsing (attribute-macros.ts): a bare name, or a name
   * ending in `()` for one that takes a parenthesised argument.
   */
  readonly attributeMacros?: readonly string[];
  /** C family: preprocessor lines inside enumerator and initializer lists are parsed apart (list-directives.ts). */
  readonly listDirectives?: boolean;
  exported(def: DefinitionContext): boolean;
  /**
   * Assignment declares (Python): at module and class level the first assignment of a name defines
   * it and later ones are references; in a function each one rebinds the local, so a use resolves to
   * the assignment reaching it, except those inside `fallbackBindings`.
   */
  readonly firstAssignmentDefines?: boolean;
  /** Node types whose assignments only rebind a local already bound (Python's `except` handlers): a fallback value, not what a later use means. */
  readonly fallbackBindings?: readonly string[];
  /** Joins the pieces of a module path captured apart (Rust `a::{b::{C}}`); `.` when unset. */
  readonly sourceSeparator?: string;
  /** The local name a whole-module import binds when the statement names none (`import os.path` → `os`). */
  moduleBinding?(source: string): string;
}

/** Kinds reached through a receiver, when declared inside another definition (or, for methods, at file level). */
export const MEMBER_KINDS: ReadonlySet<SymbolKind> = new Set(['method', 'field', 'property', 'constructor', 'enumMember']);

export function isMember(def: DefinitionContext): boolean {
  return def.parent !== null && MEMBER_KINDS.has(def.kind);
}

/** A direct child of `node` of one of `types` whose text contains `word` (a modifier list, say). */
export function hasModifier(node: SyntaxNodeLike, types: readonly string[], word: RegExp): boolean {
  return node.children.some((c) => types.includes(c.type) && word.test(c.text));
}

/** The node or one of its next `levels` ancestors has this type. */
export function underType(node: SyntaxNodeLike, type: string, levels: number): boolean {
  let at: SyntaxNodeLike | null = node;
  for (let i = 0; at && i <= levels; i++, at = at.parent) if (at.type === type) return true;
  return false;
}
