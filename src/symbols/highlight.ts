/**
 * Syntax highlighting with the highlight queries the grammar packages ship
 * (`queries/highlights.scm`): a file's text as runs of highlight classes. Runs in a pool worker
 * (it parses); one Parser per thread, queries compiled on first use. Never throws.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Parser from 'tree-sitter';
import { languageOfPath } from '../query/languages.js';

/** Above this many bytes a file is shown plain: the parse and the page would cost too much. */
export const HIGHLIGHT_MAX_BYTES = 512 * 1024;
const PARSE_TIMEOUT_MICROS = 2_000_000;

/** The classes a run may carry, by index (0: none); a capture's first name segment picks one. */
export const HIGHLIGHT_CLASSES = ['', 'keyword', 'string', 'comment', 'number', 'function', 'type', 'constant', 'property', 'operator', 'attribute', 'tag', 'module', 'label', 'escape'] as const;

const ALIASES: Readonly<Record<string, string>> = { boolean: 'constant', character: 'string', float: 'number', constructor: 'type', namespace: 'module', method: 'function', include: 'keyword', conditional: 'keyword', repeat: 'keyword', exception: 'keyword', delimiter: '' };

interface Grammar {
  readonly module: string;
  readonly member?: string;
  /** Packages whose `queries/<file>` are joined, base grammar first (TypeScript extends JavaScript's). */
  readonly queries: readonly (readonly [string, string])[];
}

const JS: readonly (readonly [string, string])[] = [['tree-sitter-javascript', 'highlights.scm']];
const GRAMMARS: ReadonlyMap<string, Grammar> = new Map([
  ['Go', { module: 'tree-sitter-go', queries: [['tree-sitter-go', 'highlights.scm']] }],
  ['Python', { module: 'tree-sitter-python', queries: [['tree-sitter-python', 'highlights.scm']] }],
  ['Rust', { module: 'tree-sitter-rust', queries: [['tree-sitter-rust', 'highlights.scm']] }],
  ['Java', { module: 'tree-sitter-java', queries: [['tree-sitter-java', 'highlights.scm']] }],
  ['C', { module: 'tree-sitter-c', queries: [['tree-sitter-c', 'highlights.scm']] }],
  ['C++', { module: 'tree-sitter-cpp', queries: [['tree-sitter-c', 'highlights.scm'], ['tree-sitter-cpp', 'highlights.scm']] }],
  ['JavaScript', { module: 'tree-sitter-javascript', queries: [...JS, ['tree-sitter-javascript', 'highlights-jsx.scm']] }],
  ['TypeScript', { module: 'tree-sitter-typescript', member: 'typescript', queries: [...JS, ['tree-sitter-typescript', 'highlights.scm']] }],
  ['TSX', { module: 'tree-sitter-typescript', member: 'tsx', queries: [...JS, ['tree-sitter-javascript', 'highlights-jsx.scm'], ['tree-sitter-typescript', 'highlights.scm']] }],
] as const);

const require = createRequire(import.meta.url);
const compiled = new Map<string, { grammar: Parser.Language; query: Parser.Query } | null>();
let parser: Parser | null = null;
const decoder = new TextDecoder();

export function highlightLanguage(path: string): string | null {
  const language = languageOfPath(path);
  return language !== null && GRAMMARS.has(language) ? language : null;
}

/**
 * Runs `[start, end, class]` (UTF-16 offsets into the text as TextDecoder decodes it, classes
 * indexing HIGHLIGHT_CLASSES), in order and not overlapping; null when the language has no
 * highlight query, the file is too large, or the parse fails.
 */
export function highlightSpans(path: string, content: Uint8Array): Uint32Array | null {
  const language = highlightLanguage(path);
  if (language === null || content.length > HIGHLIGHT_MAX_BYTES) return null;
  const compiledLanguage = compile(language);
  if (compiledLanguage === null) return null;
  const text = decoder.decode(content);
  try {
    parser ??= new Parser();
    parser.setLanguage(compiledLanguage.grammar);
    parser.setTimeoutMicros(PARSE_TIMEOUT_MICROS);
    const tree = parser.parse(text, null, { bufferSize: text.length * 2 + 2 });
    return runsOf(text.length, compiledLanguage.query.captures(tree.rootNode));
  } catch {
    parser?.reset();
    return null;
  }
}

function compile(language: string): { grammar: Parser.Language; query: Parser.Query } | null {
  if (compiled.has(language)) return compiled.get(language)!;
  const spec = GRAMMARS.get(language)!;
  let result = null;
  try {
    const module = require(spec.module) as Record<string, unknown>;
    const grammar = (spec.member === undefined ? module : module[spec.member]) as Parser.Language;
    const source = spec.queries.map(([pkg, file]) => readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), 'queries', file), 'utf8')).join('\n');
    result = { grammar, query: new Parser.Query(grammar, source) };
  } catch {
    result = null;
  }
  compiled.set(language, result);
  return result;
}

function classOf(name: string): number {
  const head = name.split('.', 1)[0]!;
  const mapped = ALIASES[head] ?? head;
  return Math.max(0, HIGHLIGHT_CLASSES.indexOf(mapped as (typeof HIGHLIGHT_CLASSES)[number]));
}

/**
 * Inner nodes paint over the nodes enclosing them; of captures of one node the first (the query's
 * earlier pattern) wins, as tree-sitter's own highlighter decides.
 */
function runsOf(length: number, captures: readonly Parser.QueryCapture[]): Uint32Array {
  const painted = captures.map((c, order) => ({ start: c.node.startIndex, end: c.node.endIndex, cls: classOf(c.name), order }))
    .filter((c) => c.end > c.start)
    .sort((a, b) => (b.end - b.start) - (a.end - a.start) || b.order - a.order);
  const classes = new Uint8Array(length);
  for (const { start, end, cls } of painted) classes.fill(cls, start, Math.min(end, length));
  const runs: number[] = [];
  for (let i = 0; i < length;) {
    const cls = classes[i]!;
    let j = i + 1;
    while (j < length && classes[j] === cls) j++;
    if (cls !== 0) runs.push(i, j, cls);
    i = j;
  }
  return Uint32Array.from(runs);
}
