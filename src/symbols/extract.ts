/**
 * The generic driver: runs a language's queries, compiled as one, in a single pass over a parsed
 * tree, walks its reference tokens, and builds FileSymbols. Knows capture names (language-spec.ts),
 * never node types. Reads only node offsets from the binding: text is sliced from the source,
 * lines come from LineStarts.
 */
import type Parser from 'tree-sitter';
import type { FileSymbols, SymbolDefinition, SymbolImport, SymbolKind } from '../model/symbols.js';
import type { SourceBlanker } from './attribute-macros.js';
import { declaredTypeName } from './declared-type.js';
import type { LanguageSpec } from './language-spec.js';
import type { LineStarts } from './line-starts.js';
import { referenceTokens, type ReferenceTypes } from './reference-tokens.js';
import { collectReferences, type DefinitionSpans } from './references.js';

export interface CompiledLanguage {
  readonly spec: LanguageSpec;
  readonly grammar: unknown;
  /** Definitions, then member references, then imports: definition patterns keep their indexes. */
  readonly query: Parser.Query;
  readonly referenceTypes: ReferenceTypes;
  /** What the parser reads instead of the text, when the language blanks attribute macros. */
  readonly blankMacros: SourceBlanker | null;
}

interface Source {
  readonly text: string;
  readonly lines: LineStarts;
}

interface Candidate {
  readonly kind: SymbolKind;
  readonly pattern: number;
  readonly nameStart: number;
  readonly nameEnd: number;
  readonly start: number;
  readonly end: number;
  readonly node: Parser.SyntaxNode;
}

interface Sorted {
  readonly definitions: Parser.QueryMatch[];
  readonly references: Parser.QueryMatch[];
  readonly imports: Parser.QueryMatch[];
}

/** A function-like macro's parameters are its own, as a function's are. */
const LOCAL_SCOPES: ReadonlySet<SymbolKind> = new Set(['function', 'method', 'constructor', 'macro']);

export function extractSymbols(lang: CompiledLanguage, tree: Parser.Tree, text: string, lines: LineStarts): FileSymbols {
  const source = { text, lines };
  const sorted = sortMatches(lang.query.matches(tree.rootNode));
  const { definitions, spans } = collectDefinitions(lang, sorted.definitions, source);
  return {
    language: lang.spec.language,
    definitions,
    references: collectReferences(sorted.references, referenceTokens(tree, lang.referenceTypes), spans, text, lines),
    imports: collectImports(lang, sorted.imports, source),
  };
}

/** Each query part has a capture only it uses: `@reference`, `@source`, else a definition. */
function sortMatches(matches: Parser.QueryMatch[]): Sorted {
  const sorted: Sorted = { definitions: [], references: [], imports: [] };
  for (const match of matches) {
    let part = sorted.definitions;
    for (const c of match.captures) {
      if (c.name === 'reference') part = sorted.references;
      else if (c.name === 'source') part = sorted.imports;
    }
    part.push(match);
  }
  return sorted;
}

function candidates(matches: readonly Parser.QueryMatch[]): Candidate[] {
  const byName = new Map<number, Candidate>();
  for (const match of matches) {
    let nameNode: Parser.SyntaxNode | null = null;
    let node: Parser.SyntaxNode | null = null;
    let kind: SymbolKind | null = null;
    for (const c of match.captures) {
      if (c.name === 'name') nameNode = c.node;
      else if (c.name.startsWith('definition.')) {
        node = c.node;
        kind = c.name.slice(11) as SymbolKind;
      }
    }
    if (!nameNode || !node || !kind) continue;
    const nameStart = nameNode.startIndex;
    const seen = byName.get(nameStart);
    if (seen && seen.pattern <= match.pattern) continue;
    const sameNode = node === nameNode;
    const nameEnd = nameNode.endIndex;
    byName.set(nameStart, { kind, pattern: match.pattern, nameStart, nameEnd, start: sameNode ? nameStart : node.startIndex, end: sameNode ? nameEnd : node.endIndex, node });
  }
  return [...byName.values()].sort((a, b) => a.start - b.start || b.end - a.end || a.nameStart - b.nameStart);
}

/** A field a method assigns (Python `self.x = …`) belongs to the method's class, not to the method. */
function fieldOwner(definitions: readonly SymbolDefinition[], kind: SymbolKind, parent: number): number {
  if (kind !== 'field' || parent < 0 || !LOCAL_SCOPES.has(definitions[parent]!.kind)) return parent;
  const owner = definitions[parent]!.parent;
  return owner >= 0 && definitions[owner]!.kind === 'class' ? owner : parent;
}

/** Per name start, the type a `@type` capture beside its `@name` declares (the first one written wins). */
function declaredTypes(matches: readonly Parser.QueryMatch[], text: string): Map<number, string> {
  const types = new Map<number, string>();
  for (const match of matches) {
    const name = match.captures.find((c) => c.name === 'name');
    const type = match.captures.find((c) => c.name === 'type');
    if (name === undefined || type === undefined || types.has(name.node.startIndex)) continue;
    const typeName = declaredTypeName(text.slice(type.node.startIndex, type.node.endIndex));
    if (typeName !== undefined) types.set(name.node.startIndex, typeName);
  }
  return types;
}

/** The names `@export` captures: exported by a statement apart from their declaration. */
function exportCaptures(matches: readonly Parser.QueryMatch[], text: string): Set<string> {
  const names = new Set<string>();
  for (const match of matches) {
    for (const c of match.captures) if (c.name === 'export') names.add(text.slice(c.node.startIndex, c.node.endIndex));
  }
  return names;
}

function collectDefinitions(lang: CompiledLanguage, matches: readonly Parser.QueryMatch[], source: Source): { definitions: SymbolDefinition[]; spans: DefinitionSpans } {
  const definitions: SymbolDefinition[] = [];
  const ends: number[] = [];
  const starts: number[] = [];
  const local: boolean[] = [];
  const stack: number[] = [];
  const redefined = new Set<string>();
  const names = new Set<number>();
  const exportedNames = exportCaptures(matches, source.text);
  const types = declaredTypes(matches, source.text);
  for (const cand of candidates(matches)) {
    const { start, end } = cand;
    // Same span as the open definition (`int a, b;`): a sibling, not a child.
    while (stack.length > 0 && (ends[stack[stack.length - 1]!]! <= start || (starts[stack[stack.length - 1]!] === start && ends[stack[stack.length - 1]!] === end))) stack.pop();
    const parent = fieldOwner(definitions, cand.kind, stack.length > 0 ? stack[stack.length - 1]! : -1);
    const name = source.text.slice(cand.nameStart, cand.nameEnd);
    // A field assigned again in its class (`this.x = …` in two methods, or after its declaration) is still the one field.
    const assignment = cand.start === cand.nameStart && cand.end === cand.nameEnd;
    // `this.x = …` outside a class (an object literal's method, a plain function) declares nothing one can name.
    if (cand.kind === 'field' && assignment && (parent < 0 || definitions[parent]!.kind !== 'class')) continue;
    const parentDef = parent >= 0 ? definitions[parent]! : null;
    const isLocal = parent >= 0 && (local[parent]! || LOCAL_SCOPES.has(parentDef!.kind));
    if ((cand.kind === 'variable' && lang.spec.firstAssignmentDefines) || cand.kind === 'field') {
      const key = `${parent}\u0000${name}`;
      // In a function each assignment rebinds the local (a use means the one reaching it), but a
      // fallback (an exception handler's) does not stand for the name once it is bound.
      const rebinds = cand.kind === 'variable' && isLocal && !insideAny(cand.node, lang.spec.fallbackBindings);
      if (redefined.has(key) && !rebinds && (lang.spec.firstAssignmentDefines || assignment)) continue;
      redefined.add(key);
    }
    const exported = !isLocal && ((parent === -1 && exportedNames.has(name)) || lang.spec.exported({
      node: cand.node, name, kind: cand.kind, local: isLocal,
      parent: parentDef ? { kind: parentDef.kind, exported: parentDef.exported } : null,
    }));
    const nameRange = source.lines.range(cand.nameStart, cand.nameEnd);
    const range = start === cand.nameStart && end === cand.nameEnd ? nameRange : source.lines.range(start, end);
    const type = types.get(cand.nameStart);
    definitions.push(type === undefined ? { name, kind: cand.kind, parent, nameRange, range, exported } : { name, kind: cand.kind, parent, nameRange, range, exported, type });
    names.add(cand.nameStart);
    starts.push(start);
    ends.push(end);
    local.push(isLocal);
    stack.push(definitions.length - 1);
  }
  return { definitions, spans: { starts, ends, names } };
}

function collectImports(lang: CompiledLanguage, matches: readonly Parser.QueryMatch[], source: Source): SymbolImport[] {
  const found: { readonly entry: SymbolImport; readonly sourceAt: number; readonly bound: boolean }[] = [];
  const boundSources = new Set<number>();
  for (const match of matches) {
    const text: Partial<Record<string, string>> = {};
    let at: Parser.SyntaxNode | null = null;
    let sourceAt = -1;
    for (const c of match.captures) {
      if (c.name.startsWith('_')) continue;
      const start = c.node.startIndex;
      const captured = source.text.slice(start, c.node.endIndex);
      const piece = text[c.name];
      text[c.name] = c.name === 'source' && piece !== undefined ? `${piece}${lang.spec.sourceSeparator ?? '.'}${captured}` : captured;
      if (c.name === 'source' && sourceAt < 0) sourceAt = start;
      if (c.name !== 'source' || !at) at = c.node;
    }
    const module = text['source'];
    if (module === undefined || !at) continue;
    const binding = text['alias'] ?? text['default'] ?? text['namespace'] ?? text['name'];
    const bound = binding !== undefined || text['wildcard'] !== undefined;
    if (bound) boundSources.add(sourceAt);
    const localName = text['wildcard'] !== undefined ? '*' : binding ?? lang.spec.moduleBinding?.(module) ?? '*';
    const importedName = text['name'] ?? (text['default'] !== undefined ? 'default' : '*');
    found.push({ entry: { localName, importedName, source: module, range: source.lines.range(at.startIndex, at.endIndex) }, sourceAt, bound });
  }
  // A statement-level pattern also matches statements whose bindings other patterns captured.
  return found
    .filter((f) => f.bound || !boundSources.has(f.sourceAt))
    .map((f) => f.entry)
    .sort((a, b) => a.range.startLine - b.range.startLine || a.range.startColumn - b.range.startColumn);
}

/** Whether the node sits in one of `types`, looking no further out than the enclosing function. */
function insideAny(node: Parser.SyntaxNode, types: readonly string[] | undefined): boolean {
  if (types === undefined) return false;
  for (let at = node.parent; at !== null && !FUNCTION_NODE.test(at.type); at = at.parent) if (types.includes(at.type)) return true;
  return false;
}

const FUNCTION_NODE = /function|method|lambda/;
