/**
 * BM25F ranking of nls_search's matched files, from the matched lines the engine returned: a term's
 * occurrences at word starts weighed by field (code, comments, string literals) and saturated once
 * together with its other forms (synonyms, abbreviations), document frequencies among matched files,
 * boosts for terms in the path or in a defined name, a coverage factor so files hitting more concepts
 * rank first, and the file's role as a prior (source before tests, docs and copies, unless asked).
 */
import type { FileMatch } from '../../../model/result.js';
import type { LineHit } from './search-chunks.js';
import type { RankedFile } from './search-answer.js';
import { fileRole, roleIntent, rolePrior } from './file-role.js';
import { FIELD_WEIGHTS, lineFieldAt, type ContentField } from './nls-fields.js';
import { escapeRegex, type NlsQuery, type SearchTerm } from './nls-terms.js';

export const BM25_K1 = 1.2;
/**
 * Length normalization uses the file's matched-line count: the file's size would take a blob read
 * for each of up to thousands of matched files, and the count already grows with how much of a file
 * mentions the terms, so one long file that mentions them everywhere does not win on volume alone.
 * b is below the textbook 0.75 because the count is only a proxy for length. (The symbol table's
 * identifier count, a true length, ranked worse on the tuning questions and costs a decode per file.)
 */
export const BM25_B = 0.5;
/**
 * In units of the saturated term frequency (at most k1 + 1): a path names what a file is about. Added
 * after saturation rather than as a field inside it, which ranked better: the path counts however
 * often the code repeats the term.
 */
export const PATH_BOOST = 2;
/** A term inside a name the file defines (`function parseRequest`): the file is where that thing lives. */
export const DEFINITION_BOOST = 1.5;

export interface ScoredFile extends RankedFile {
  readonly score: number;
  /** Distinct query concepts found in the file's lines or path. */
  readonly concepts: number;
}

interface FileTerms {
  readonly match: FileMatch;
  /** Per term, its occurrences in each content field. */
  readonly tf: Record<ContentField, number>[];
  readonly inPath: boolean[];
  readonly inDefinition: boolean[];
  readonly hits: LineHit[];
  /** The most distinct concepts any PROXIMITY_LINES lines of the file hold together. */
  readonly nearConcepts: number;
}

/** Lines within which concepts count as found together (about one function). */
export const PROXIMITY_LINES = 40;

export function rankFiles(files: readonly FileMatch[], nls: NlsQuery, collectionSize: number): ScoredFile[] {
  const patterns = nls.terms.map((t) => new RegExp(escapeRegex(t.text), 'gi'));
  const analysed = files.map((f) => analyse(f, nls.terms, patterns)).filter((f) => f.hits.length > 0 || f.inPath.some(Boolean));
  const n = Math.max(collectionSize, analysed.length);
  const groups = termGroups(nls.terms);
  const idf = groups.map((group) => {
    const df = analysed.filter((f) => group.some((t) => occurs(f, t))).length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });
  const avgLength = Math.max(1, analysed.reduce((sum, f) => sum + f.hits.length, 0) / Math.max(1, analysed.length));
  const intent = roleIntent(nls.terms.map((t) => t.text));
  const scored = analysed.map((f): ScoredFile => {
    const norm = 1 - BM25_B + (BM25_B * Math.max(1, f.hits.length)) / avgLength;
    let score = 0;
    const covered = new Set<number>();
    groups.forEach((group, g) => {
      // A term and its other forms are one pseudo-term, each occurrence counted at its form's share of the weight.
      const weight = Math.max(...group.map((t) => nls.terms[t]!.weight));
      let tf = 0;
      let path = 0;
      let definition = 0;
      for (const t of group) {
        if (!occurs(f, t)) continue;
        const share = nls.terms[t]!.weight / weight;
        covered.add(nls.terms[t]!.concept);
        tf += (share * (FIELD_WEIGHTS.code * f.tf[t]!.code + FIELD_WEIGHTS.comment * f.tf[t]!.comment + FIELD_WEIGHTS.string * f.tf[t]!.string)) / norm;
        if (f.inPath[t]) path = Math.max(path, share);
        if (f.inDefinition[t]) definition = Math.max(definition, share);
      }
      if (tf === 0 && path === 0) return;
      score += weight * idf[g]! * ((tf * (BM25_K1 + 1)) / (tf + BM25_K1) + path * PATH_BOOST + definition * DEFINITION_BOOST);
    });
    // Half from the whole file, half from its best passage: concepts found together are an answer, scattered ones a mention.
    const coverage = (covered.size + Math.min(covered.size, f.nearConcepts)) / (2 * Math.max(1, nls.concepts));
    return { match: f.match, hits: f.hits, score: score * coverage * coverage * rolePrior(fileRole(f.match.path), intent), concepts: covered.size };
  });
  return scored.sort((a, b) => b.score - a.score || a.match.path.length - b.match.path.length || (a.match.path < b.match.path ? -1 : 1));
}

const occurs = (f: FileTerms, t: number): boolean => f.inPath[t]! || f.tf[t]!.code + f.tf[t]!.comment + f.tf[t]!.string > 0;

/**
 * The query's terms (by index) grouped with their other forms: BM25 saturates a group once, so a
 * concept with many synonyms does not outscore a concept the code names one way.
 */
export function termGroups(terms: readonly SearchTerm[]): number[][] {
  const byBase = new Map<string, number[]>();
  terms.forEach((term, t) => {
    const base = term.formOf ?? term.text;
    byBase.set(base, [...(byBase.get(base) ?? []), t]);
  });
  return [...byBase.values()];
}

function analyse(match: FileMatch, terms: readonly SearchTerm[], patterns: readonly RegExp[]): FileTerms {
  const tf = terms.map(() => ({ comment: 0, string: 0, code: 0 }));
  const inDefinition = terms.map(() => false);
  const inPath = patterns.map((p) => termStarts(match.path, p).length > 0);
  const hits: LineHit[] = [];
  const conceptLines: { line: number; concepts: Set<number> }[] = [];
  for (const lm of match.lineMatches) {
    const names = definedNames(lm.line);
    const fieldAt = lineFieldAt(lm.line);
    const concepts = new Set<number>();
    let defines = false;
    patterns.forEach((p, t) => {
      const starts = termStarts(lm.line, p);
      if (starts.length === 0) return;
      for (const s of starts) tf[t]![fieldAt(s)]++;
      concepts.add(terms[t]!.concept);
      if (starts.some((s) => names.some((name) => s >= name.start && s < name.end))) {
        inDefinition[t] = true;
        defines = true;
      }
    });
    if (concepts.size > 0) {
      hits.push({ line: lm.lineNumber, weight: concepts.size + (defines ? 1 : 0), ...(defines ? { definition: true } : {}) });
      conceptLines.push({ line: lm.lineNumber, concepts });
    }
  }
  return { match, tf, inPath, inDefinition, hits, nearConcepts: mostTogether(conceptLines) };
}

/** The most distinct concepts within PROXIMITY_LINES consecutive lines (lines in ascending order). */
function mostTogether(lines: readonly { line: number; concepts: Set<number> }[]): number {
  const sorted = [...lines].sort((a, b) => a.line - b.line);
  let best = 0;
  for (let start = 0; start < sorted.length; start++) {
    const seen = new Set<number>();
    for (let end = start; end < sorted.length && sorted[end]!.line - sorted[start]!.line < PROXIMITY_LINES; end++) {
      for (const c of sorted[end]!.concepts) seen.add(c);
    }
    best = Math.max(best, seen.size);
  }
  return best;
}

/** Where the term starts a word or an identifier part (`parseHTTPRequest`: parse, HTTP, Request). */
export function termStarts(text: string, pattern: RegExp): number[] {
  const out: number[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (isWordStart(text, m.index)) out.push(m.index);
    pattern.lastIndex = m.index + Math.max(1, m[0].length);
  }
  return out;
}

const LOWER = /[a-z]/;
const UPPER = /[A-Z]/;
const ALNUM = /[\p{L}\p{N}]/u;
const DIGIT = /\d/;

function isWordStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const prev = text[i - 1]!;
  const cur = text[i]!;
  if (!ALNUM.test(prev)) return true;
  if (LOWER.test(prev) && UPPER.test(cur)) return true;
  if (DIGIT.test(prev) !== DIGIT.test(cur)) return true;
  const next = text[i + 1];
  return UPPER.test(prev) && UPPER.test(cur) && next !== undefined && LOWER.test(next);
}

const DEFINITION_KEYWORDS = ['function', 'def', 'class', 'func', 'interface', 'type', 'struct', 'enum', 'trait', 'const', 'let', 'var', 'val', 'fn', 'impl', 'module', 'export', 'default', 'pub', 'public', 'private', 'protected', 'static', 'final', 'abstract', 'override', 'async', 'void', 'int', 'bool', 'boolean', 'char', 'long', 'double', 'float'];
const KEYWORD_SET = new Set(DEFINITION_KEYWORDS);
const KEYWORD_DEFINITION = new RegExp(`\\b(?:${DEFINITION_KEYWORDS.join('|')})\\*?\\s+(?:\\([^)]*\\)\\s*)?[*&]?\\s*([A-Za-z_$][\\w$]*)`, 'g');
/** A method declared without a keyword (`  login(user: string): boolean {`), not a call or a control statement. */
const BARE_METHOD = /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^={]*)?\{\s*$/;
const CALL_NAME = /([A-Za-z_$][\w$]*)\s*\(/g;
const CONTROL = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'new', 'await', 'throw']);

/** Character spans of the names a line defines. */
export function definedNames(line: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  KEYWORD_DEFINITION.lastIndex = 0;
  for (let m = KEYWORD_DEFINITION.exec(line); m !== null; m = KEYWORD_DEFINITION.exec(line)) {
    const start = m.index + m[0].length - m[1]!.length;
    // `export function parse`: the captured "function" is a keyword, so look again from it.
    if (KEYWORD_SET.has(m[1]!)) KEYWORD_DEFINITION.lastIndex = start;
    else out.push({ start, end: start + m[1]!.length });
  }
  const bare = BARE_METHOD.exec(line);
  // A declaration header (ends in `{` or `:`) names the function before its parameter list:
  // `public boolean checkPassword(String raw) {`, `def check(self):`.
  if (!/[{:]\s*$/.test(line) || (out.length === 0 && bare === null)) return out;
  CALL_NAME.lastIndex = 0;
  for (let m = CALL_NAME.exec(line); m !== null; m = CALL_NAME.exec(line)) {
    const known = out.some((span) => span.start === m!.index);
    if (!known && !KEYWORD_SET.has(m[1]!) && !CONTROL.has(m[1]!)) out.push({ start: m.index, end: m.index + m[1]!.length });
  }
  return out;
}
