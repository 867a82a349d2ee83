/**
 * One shard task, start to finish, in one worker thread: candidates from trigram postings and
 * path hits → filters → per candidate a cheap occurrence test and the boolean expression → an
 * exact scan of documents that match → line matches and score. Stops early at the task's match limit, its deadline, or when the stop flag is raised.
 */
import { isQuarryError } from '../errors.js';
import type { CompiledMatcher, PatternSpec } from '../matcher/matcher.js';
import type { SegmentSource } from '../index/store.js';
import type { OffsetAndLength, SymbolMatch } from '../model/result.js';
import { emptyStats, type SearchStats } from '../model/stats.js';
import { bitmapBytes } from '../index/block-map.js';
import { DOC_FLAG_ASCII, DOC_FLAG_UTF8 } from '../index/format.js';
import { compileBlockQuery, mayMatchInBlocks, type BlockQuery } from './block-filter.js';
import { evalTrigramQuery } from './candidates.js';
import { forEachDoc, intersect, union, type DocSet } from '../index/doc-set.js';
import { filterDocs } from './filters.js';
import { toLineMatches, codePoints } from './lines.js';
import { packLines, type PackedLines } from './packed-lines.js';
import { docsWithHits, matchPaths, type PathHits } from './path-matches.js';
import type { ExprPlan, ShardPlan } from './plan.js';
import { scoreFile } from './score.js';
import type { ContentSymbols } from './symbol-content.js';
import { contentBits, evalExpr, positiveRanges, scanContent } from './verify.js';

/** Pattern sets this small get the cheap occurrence test before the exact scan. */
const MAX_TEST_PATTERNS = 31;
/** Documents tested before the pass rate may turn the test off. */
const TEST_SAMPLE = 32;

export interface ShardFileMatch {
  readonly doc: number;
  readonly path: string;
  readonly lines: PackedLines;
  readonly pathMatches: OffsetAndLength[];
  readonly matchCount: number;
  readonly score: number;
  /** Symbol matches (`type:symbol`) or the definitions the matches hit (`select:symbol`). */
  readonly symbols?: SymbolMatch[];
}

export interface ShardSearchResult {
  readonly files: ShardFileMatch[];
  readonly limitHit: boolean;
  readonly timedOut: boolean;
  readonly stats: SearchStats;
}

export interface ShardSearchInput {
  readonly source: SegmentSource;
  readonly plan: ShardPlan;
  readonly lo: number;
  readonly hi: number;
  readonly deleted: ReadonlySet<number>;
  /** Stop after this many matches (lines, or 1 per path-only file). */
  readonly limit: number;
  readonly deadline: number;
  /** Index 0 becomes non-zero when the search should stop (limit reached elsewhere, cancelled). */
  readonly stop: Int32Array | null;
  readonly compile: (patterns: readonly PatternSpec[], preference: ShardPlan['matcher']) => CompiledMatcher;
  /** Symbol facts of matched files (ranking, select:symbol); absent when the source has no tables. */
  readonly contentSymbols?: ContentSymbols;
}

export function searchShard(input: ShardSearchInput): ShardSearchResult {
  const { source, plan, lo, hi } = input;
  const stats = emptyStats();
  stats.shardsSearched = 1;
  const started = performance.now();
  const pathHits = needsPathHits(plan) ? matchPaths(input.compile(plan.patterns, plan.matcher), source, lo, hi) : null;
  let candidates = plan.expr ? exprCandidates(plan.expr, plan, source, lo, hi, pathHits, stats) : null;
  candidates = filterDocs(candidates, plan, source, lo, hi, input.compile);
  stats.candidatesMs = performance.now() - started;
  const verifyStarted = performance.now();
  const outcome = verifyCandidates(input, candidates, pathHits, stats);
  stats.verifyMs = performance.now() - verifyStarted;
  return { ...outcome, stats };
}

function needsPathHits(plan: ShardPlan): boolean {
  return plan.atoms.some((a) => a.matchPath);
}

function exprCandidates(expr: ExprPlan, plan: ShardPlan, source: SegmentSource, lo: number, hi: number, pathHits: PathHits | null, stats: SearchStats): DocSet {
  switch (expr.op) {
    case 'atom': {
      const atom = plan.atoms[expr.atom]!;
      if (atom.negated) return null;
      const byContent = atom.matchContent ? evalTrigramQuery(atom.trigrams, source, lo, hi, stats) : new Uint32Array(0);
      return atom.matchPath && pathHits ? union(byContent, docsWithHits(pathHits, expr.atom)) : byContent;
    }
    case 'and':
      return expr.args.reduce<DocSet>((acc, arg) => (acc !== null && acc.length === 0 ? acc : intersect(acc, exprCandidates(arg, plan, source, lo, hi, pathHits, stats))), null);
    case 'or':
      return expr.args.reduce<DocSet>((acc, arg) => (acc === null ? acc : union(acc, exprCandidates(arg, plan, source, lo, hi, pathHits, stats))), new Uint32Array(0));
  }
}

function verifyCandidates(input: ShardSearchInput, candidates: DocSet, pathHits: PathHits | null, stats: SearchStats): Omit<ShardSearchResult, 'stats'> {
  const { plan } = input;
  const needContent = plan.expr !== null && plan.atoms.some((a) => a.matchContent);
  const full = needContent ? input.compile(plan.patterns, plan.matcher) : null;
  const ascii = full && plan.asciiPatterns ? input.compile(plan.asciiPatterns, plan.matcher) : full;
  const matchers = full && ascii ? { full, ascii } : null;
  if (full) stats.matchers.push(full.engine);
  const context: VerifyContext = {
    matchers, pathHits, stats, exactTexts: plan.exactTexts.map((t) => Buffer.from(t)),
    tests: { enabled: plan.patterns.length <= MAX_TEST_PATTERNS, tested: 0, passed: 0 },
    blockQueries: matchers ? blockQueries(plan, input.source) : null,
  };
  const files: ShardFileMatch[] = [];
  let found = 0;
  let limitHit = false;
  let timedOut = false;
  let checked = 0;
  forEachDoc(candidates, input.lo, input.hi, input.deleted, (doc) => {
    stats.candidates++;
    if ((++checked & 63) === 0 && (Date.now() > input.deadline || (input.stop && Atomics.load(input.stop, 0) !== 0))) {
      timedOut = Date.now() > input.deadline;
      return false;
    }
    const match = matchDoc(doc, input, context, input.limit - found);
    if (!match) return true;
    files.push(match);
    found += match.matchCount;
    if (found >= input.limit) {
      limitHit = true;
      return false;
    }
    return true;
  });
  return { files, limitHit, timedOut };
}

/** The pattern set compiled for any document, and for pure-ASCII ones (the same object when no pattern differs). */
interface Matchers {
  readonly full: CompiledMatcher;
  readonly ascii: CompiledMatcher;
}

/**
 * The occurrence test pays off when most candidates do not match; when most do (common literals),
 * the exact scan alone answers the same question, so the test is dropped for the rest of the task.
 */
interface TestPolicy {
  enabled: boolean;
  tested: number;
  passed: number;
}

interface VerifyContext {
  readonly matchers: Matchers | null;
  /** Per atom, its query against block maps (null: a map cannot judge it); null when the source has no maps. */
  readonly blockQueries: readonly (BlockQuery | null)[] | null;
  readonly pathHits: PathHits | null;
  readonly stats: SearchStats;
  readonly exactTexts: readonly Uint8Array[];
  readonly tests: TestPolicy;
}

/** `maxLines`: the matches the task may still report; a document with more is cut to them. */
function matchDoc(doc: number, input: ShardSearchInput, context: VerifyContext, maxLines: number): ShardFileMatch | null {
  const { source, plan } = input;
  const { matchers, pathHits, stats, exactTexts, tests } = context;
  const pathRanges = plan.atoms.map((a, i) => (a.matchPath && pathHits ? pathHits[i]!.get(doc) ?? null : null));
  const pathMatched = (atom: number): boolean => pathRanges[atom] !== null;
  let contentRanges: (number[] | null)[] = [];
  let content: Uint8Array | null = null;
  if (matchers) {
    if (context.blockQueries && ruledOutByBlocks(doc, source, plan, context, pathMatched)) return null;
    content = source.content(doc);
    const flags = source.flags(doc);
    const utf8 = (flags & DOC_FLAG_UTF8) !== 0;
    const matcher = flags & DOC_FLAG_ASCII ? matchers.ascii : matchers.full;
    stats.docsScanned++;
    stats.bytesScanned += content.length;
    try {
      if (tests.enabled) {
        const bits = contentBits(matcher, content, utf8);
        const inContent = (atom: number): boolean => plan.atoms[atom]!.matchContent && (bits & (1 << atom)) !== 0;
        const passed = !plan.expr || evalExpr(plan.expr, plan, (a) => inContent(a) || pathMatched(a));
        recordTest(tests, passed);
        if (!passed) return null;
      }
      contentRanges = scanContent(matcher, content, utf8, plan.patterns.length).map((r, i) => (plan.atoms[i]!.matchContent ? r : null));
    } catch (err) {
      if (!isQuarryError(err)) throw err;
      stats.shardsFailed++;
      return null;
    }
  }
  if (plan.expr && !evalExpr(plan.expr, plan, (a) => (contentRanges[a] ?? null) !== null || pathMatched(a))) return null;
  const path = source.path(doc);
  const pathMatches = pathOffsets(path, positiveRanges(plan, pathRanges));
  const ranges = positiveRanges(plan, contentRanges);
  const lineMatches = content ? toLineMatches(content, ranges, maxLines) : [];
  const symbols = input.contentSymbols?.(doc, lineMatches) ?? null;
  const score = scoreFile({ content, ranges, lines: lineMatches, pathMatched: pathMatches.length > 0, exactTexts, definitionHit: symbols?.definitionHit ?? null });
  const match = { doc, path, lines: packLines(lineMatches), pathMatches, matchCount: lineMatches.length || 1, score };
  return symbols?.symbols ? { ...match, symbols: symbols.symbols } : match;
}

/** Each content atom's block query, or null when no atom has one or the source has no maps. */
function blockQueries(plan: ShardPlan, source: SegmentSource): (BlockQuery | null)[] | null {
  const params = source.blockMapParams;
  if (!params || !source.blockMap) return null;
  const queries = plan.atoms.map((a) => (a.matchContent && !a.negated ? compileBlockQuery(a.trigrams, params) : null));
  return queries.some((q) => q !== null) ? queries : null;
}

/**
 * True when the doc's block map shows the expression cannot hold, before its content is read: an
 * atom is taken to match wherever its map cannot rule it out, and a negated atom not to match (the
 * verdict can then only be too generous, never too strict).
 */
function ruledOutByBlocks(doc: number, source: SegmentSource, plan: ShardPlan, context: VerifyContext, pathMatched: (atom: number) => boolean): boolean {
  const queries = context.blockQueries!;
  if (!plan.expr) return false;
  const bitmaps = source.blockMap!(doc);
  if (!bitmaps) return false;
  const bytesPerBlock = bitmapBytes(source.blockMapParams!);
  const mayMatch = (atom: number): boolean => {
    if (pathMatched(atom)) return true;
    const a = plan.atoms[atom]!;
    if (a.negated || !a.matchContent) return false;
    const q = queries[atom];
    return q === null || q === undefined || mayMatchInBlocks(q, bitmaps, bytesPerBlock);
  };
  if (evalExpr(plan.expr, plan, mayMatch)) return false;
  context.stats.docsRuledOutByBlocks++;
  return true;
}

function recordTest(tests: TestPolicy, passed: boolean): void {
  tests.tested++;
  if (passed) tests.passed++;
  if (tests.tested >= TEST_SAMPLE && tests.passed * 2 > tests.tested) tests.enabled = false;
}

function pathOffsets(path: string, byteRanges: number[]): OffsetAndLength[] {
  if (byteRanges.length === 0) return [];
  const bytes = Buffer.from(path);
  const out: OffsetAndLength[] = [];
  for (let i = 0; i < byteRanges.length; i += 2) {
    out.push([codePoints(bytes, 0, byteRanges[i]!), codePoints(bytes, byteRanges[i]!, byteRanges[i + 1]!)]);
  }
  return out;
}
