/**
 * C family: preprocessor lines inside an enumerator or initializer list (`enum { #include "ops.h" }`,
 * the X-macro idiom) are outside tree-sitter's grammar and break the parse of the whole declaration.
 * They are split off: the file is parsed without them, and they are parsed alone, as the file-level
 * directives they are; the two tables are merged. Never changes a length or a newline.
 */
import type { FileSymbols, SourceRange, SymbolDefinition, SymbolReference } from '../model/symbols.js';

export interface SplitDirectives {
  /** The text with the list directives blanked. */
  readonly main: string;
  /** The list directives alone, everything else blanked. */
  readonly directives: string;
}

/** Null when no preprocessor line sits inside an enumerator or initializer list. */
export function splitListDirectives(text: string): SplitDirectives | null {
  if (!text.includes('#')) return null;
  const moved = listDirectiveSpans(text);
  if (moved.length === 0) return null;
  let main = '';
  let directives = '';
  let at = 0;
  for (const [start, end] of moved) {
    const before = text.slice(at, start);
    const directive = text.slice(start, end);
    main += before + blank(directive);
    directives += blank(before) + directive;
    at = end;
  }
  return { main: main + text.slice(at), directives: directives + blank(text.slice(at)) };
}

function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}

/**
 * What decides brace kinds, in one pass of one expression (words are skipped: a token loop costs a
 * tenth of the parse): comments, literals, directives (continuations included), `enum`, and the
 * punctuation that opens or ends a declaration.
 */
const TOKEN = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|^[ \t]*#(?:[^\n\\]|\\[\s\S])*|\benum\b|[{};(=]/gm;

/** The [start, end) spans of preprocessor lines (continuations included) met inside a list's braces. */
function listDirectiveSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  // Per open brace: whether it opens an enumerator or initializer list.
  const lists: boolean[] = [];
  let enumPending = false;
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    const first = token.charCodeAt(0);
    if (token.length > 1 && (first === 47 || first === 34 || first === 39)) continue;
    if (token.length > 1 && token !== 'enum') {
      if (lists.at(-1) === true) spans.push([match.index + token.indexOf('#'), match.index + token.length]);
      continue;
    }
    if (token === 'enum') enumPending = true;
    else if (token === '{') lists.push(lists.at(-1) === true || enumPending || previousChar(text, match.index) === '=');
    else if (token === '}') lists.pop();
    if (token !== 'enum') enumPending = false;
  }
  return spans;
}

/** The last character before `at` that is not white space. */
function previousChar(text: string, at: number): string {
  let i = at - 1;
  while (i >= 0 && /\s/.test(text[i]!)) i--;
  return i >= 0 ? text[i]! : '';
}

/** One table of both parses, definitions and references in file order (the directives' are file level). */
export function mergeFileSymbols(main: FileSymbols, directives: FileSymbols): FileSymbols {
  const order = mergeOrder(main.definitions.map((d) => d.range), directives.definitions.map((d) => d.range));
  const remap = (definitions: readonly SymbolDefinition[], index: readonly number[]): SymbolDefinition[] =>
    definitions.map((d) => (d.parent < 0 ? d : { ...d, parent: index[d.parent]! }));
  const definitions: SymbolDefinition[] = [];
  const fromMain = remap(main.definitions, order.first);
  const fromDirectives = remap(directives.definitions, order.second);
  order.first.forEach((at, i) => (definitions[at] = fromMain[i]!));
  order.second.forEach((at, i) => (definitions[at] = fromDirectives[i]!));
  const rescope = (references: readonly SymbolReference[], index: readonly number[]): SymbolReference[] =>
    references.map((r) => (r.scope < 0 ? r : { ...r, scope: index[r.scope]! }));
  const references = [...rescope(main.references, order.first), ...rescope(directives.references, order.second)]
    .sort((a, b) => comparePositions(a.range, b.range));
  const imports = [...main.imports, ...directives.imports].sort((a, b) => comparePositions(a.range, b.range));
  return { language: main.language, definitions, references, imports };
}

/** Where each range of two sorted lists lands in their merge. */
function mergeOrder(first: readonly SourceRange[], second: readonly SourceRange[]): { first: number[]; second: number[] } {
  const out = { first: [] as number[], second: [] as number[] };
  let i = 0;
  let j = 0;
  while (i < first.length || j < second.length) {
    if (j >= second.length || (i < first.length && comparePositions(first[i]!, second[j]!) <= 0)) out.first.push(i++ + j);
    else out.second.push(i + j++);
  }
  return out;
}

function comparePositions(a: SourceRange, b: SourceRange): number {
  return a.startLine - b.startLine || a.startColumn - b.startColumn;
}
