/**
 * The offline researcher's reading of a question and of code, without a model: the filters that
 * scope every search, the identifiers worth following, the densest run of matched lines in a file,
 * and the definition a line sits in.
 */
import type { FileHits } from './tools.js';

const FILTER = /(?:^|\s)(-?(?:repo|r|file|f|lang|l|language|rev|revision):\S+)/gi;
/** Words that look like code: camelCase, snake_case, dotted or called names, or anything in backticks. */
const CODE_WORD = /`([^`\s]{2,80})`|\b([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+|[a-z]+[A-Z][\w$]*|[A-Z][a-z0-9]+[A-Z][\w$]*|[A-Za-z]+_[\w$]+)(?:\(\))?/g;

export interface QuestionPlan {
  /** Filters to keep on every search (`repo:^github\.com/org/x$ lang:go`). */
  readonly scope: string;
  /** The question without its filters. */
  readonly text: string;
  /** Code names the question mentions, last part of dotted names, at most three. */
  readonly identifiers: readonly string[];
}

const STOPWORDS = new Set(['the', 'and', 'for', 'are', 'how', 'what', 'where', 'when', 'which', 'who', 'why', 'does', 'did', 'with', 'from', 'into', 'that', 'this', 'these', 'those', 'its', 'their', 'there', 'then', 'than', 'can', 'will', 'would', 'should', 'could', 'has', 'have', 'had', 'was', 'were', 'been', 'being', 'not', 'all', 'any', 'each', 'one', 'two', 'out', 'use', 'used', 'uses', 'using', 'code', 'function', 'method', 'defined', 'called', 'calls', 'call', 'get', 'set', 'new']);

/** The question's own words (lower case, three letters or more, common ones left out). */
export function questionWords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? []).filter((w) => !STOPWORDS.has(w)));
}

/** Names called in these lines (`name(`) that the question names, as words or whole identifiers. */
export function calledNamesAsked(lines: readonly string[], words: ReadonlySet<string>, identifiers: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    for (const m of line.matchAll(/\b([A-Za-z_$][\w$]*)\s*\(/g)) {
      const name = m[1]!;
      if (NOT_NAMES.has(name) || out.includes(name)) continue;
      if (identifiers.includes(name) || words.has(name.toLowerCase())) out.push(name);
    }
  }
  return out;
}

export function planQuestion(question: string, earlier: readonly string[]): QuestionPlan {
  const filters = [...question.matchAll(FILTER)].map((m) => m[1]!);
  // A follow-up keeps the scope of the conversation unless it sets its own.
  const inherited = filters.length > 0 ? [] : earlier.flatMap((q) => [...q.matchAll(FILTER)].map((m) => m[1]!));
  const text = question.replace(FILTER, ' ').replace(/\s+/g, ' ').trim();
  const identifiers: string[] = [];
  for (const m of text.matchAll(CODE_WORD)) {
    const word = (m[1] ?? m[2] ?? '').replace(/\(\)$/, '');
    const last = word.split('.').pop() ?? '';
    if (/^[A-Za-z_$][\w$]{2,}$/.test(last) && !identifiers.includes(last)) identifiers.push(last);
  }
  return { scope: [...new Set([...filters, ...inherited])].join(' '), text, identifiers: identifiers.slice(0, 3) };
}

const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'return', 'catch', 'else', 'do', 'sizeof', 'main', 'function', 'typeof', 'super']);

export interface LineWindow {
  readonly start: number;
  readonly end: number;
  /** Matched lines inside it. */
  readonly hits: number;
}

const CLUSTER_GAP = 6;
const MAX_WINDOW = 14;
const PAD = 2;

/** The run of matched lines (gaps under 6) holding the most of them, padded and at most 14 lines. */
export function densestWindow(file: FileHits): LineWindow | null {
  const lines = [...new Set(file.lines.map((l) => l.line))].sort((a, b) => a - b);
  if (lines.length === 0) return null;
  let best = { from: 0, to: 0 };
  let from = 0;
  for (let i = 1; i <= lines.length; i++) {
    if (i < lines.length && lines[i]! - lines[i - 1]! <= CLUSTER_GAP) continue;
    if (i - from > best.to - best.from + 1) best = { from, to: i - 1 };
    from = i;
  }
  const start = Math.max(1, lines[best.from]! - PAD);
  const end = Math.min(lines[best.to]! + PAD, start + MAX_WINDOW - 1);
  return { start, end, hits: best.to - best.from + 1 };
}

const DEFINITION_LINE: readonly RegExp[] = [
  /^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/,
  /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/,
  /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+([A-Za-z_]\w*)/,
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/,
  /^\s*(?:export\s+)?(?:abstract\s+)?(?:class|interface|struct|trait|enum|impl)\s+([A-Za-z_$][\w$]*)/,
  /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:function|\()/,
  /^\s*(?:(?:public|private|protected|static|final|synchronized|abstract|override|async|get|set)\s+)+(?:[\w<>[\],.?\s]+\s+)?([A-Za-z_$][\w$]*)\s*\(/,
  /^\s*(?:static\s+|inline\s+|const\s+|unsigned\s+|struct\s+)*[A-Za-z_][\w\s*]*?\b([A-Za-z_]\w*)\s*\([^;]*$/,
  /^\s*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{\s*$/,
];


/** The name of the definition a line opens, if it looks like one. */
export function definedName(line: string): string | null {
  for (const pattern of DEFINITION_LINE) {
    const name = pattern.exec(line)?.[1];
    if (name !== undefined && !NOT_NAMES.has(name)) return name;
  }
  return null;
}

/** The nearest definition at or above `index` in `lines` (0-based), looking back at most 60 lines. */
export function enclosingName(lines: readonly string[], index: number): { name: string; index: number } | null {
  for (let i = Math.min(index, lines.length - 1); i >= 0 && index - i <= 60; i--) {
    const name = definedName(lines[i]!);
    if (name !== null) return { name, index: i };
  }
  return null;
}
