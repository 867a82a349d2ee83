/**
 * One shard task, start to finish, in one worker thread: candidates from trigram postings and
 * path hits → filters → per candidate a cheap occurrence test and the boolean expression → an
 * exact scan of documents that match → line matches and score. Tasks over ranges of one segment
 * share their candidates (range-share.ts). Stops early at the task's match limit, its deadline, or
 * when the stop flag is raised; returns at its first match while the search has delivered none, with
 * where to resume, so a streamed search's first results do not wait for the rest of a range.
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
import { claimCandidate, closeRange, nextRange, publishCandidates, worthJoining, type RangeShare } from './range-share.js';
import { filterDocs } from './filters.js';
import { toLineMatches, codePoints } from './lines.js';
import { packLines, type PackedLines } from './packed-lines.js';
import { FIRST_DELIVERED, STOP } from './stop-flags.js';
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
  /** Set when the task returned at its first match (FIRST_DELIVERED was 0): the rest of its work, for a task that resumes it. */
  readonly resume?: ShardResume;
}

/**
 * Where a task that returned early left off: a lone range goes on from doc `lo` (its candidates
 * ascend, so every one before it is verified); a shared range is taken up again by its index
 * (RangeShare.resumed), its unclaimed candidates still on the board.
 */
export type ShardResume = { readonly lo: number } | { readonly range: number };


export interface ShardSearchInput {
  readonly source: SegmentSource;
  readonly plan: ShardPlan;
  readonly lo: number;
  readonly hi: number;
  readonly deleted: ReadonlySet<number>;
  /** Stop after this many matches (lines, or 1 per path-only file). */
  readonly limit: number;
  readonly deadline: number;
  /** STOP becomes non-zero when the search should stop (limit reached elsewhere, cancelled); FIRST_DELIVERED, when present, see there. */
  readonly stop: Int32Array | null;
  readonly compile: (patterns: readonly PatternSpec[], preference: ShardPlan['matcher']) => CompiledMatcher;
  /** Symbol facts of matched files (ranking, select:symbol); absent when the source has no tables. */
  readonly contentSymbols?: ContentSymbols;
  /** The segment's other ranges, searched by other tasks of the same search, whose candidates this task may help verify. */
  readonly share?: RangeShare | null;
}

export function searchShard(input: ShardSearchInput): ShardSearchResult {
  const stats = emptyStats();
  stats.shardsSearched = 1;
  const context = verifyContext(input, stats);
  const outcome: Outcome = { files: [], found: 0, limitHit: false, timedOut: false, checked: 0, resume: null };
  const share = input.share ?? null;
  if (!share) {
    searchRange(input, { lo: input.lo, hi: input.hi, deleted: input.deleted }, null, context, outcome);
    return result(outcome, stats);
  }
  const started = performance.now();
  const visited = new Set([share.own]);
  let range = share.resumed || worthJoining(share.board, share.own) ? share.own : nextRange(share.board, visited);
  while (range >= 0 && !outcome.limitHit && !outcome.timedOut && outcome.resume === null && !stopRaised(input)) {
    visited.add(range);
    const { lo, hi, deleted } = share.ranges[range]!;
    searchRange(input, { lo, hi, deleted: range === share.own ? input.deleted : new Set(deleted) }, { board: share.board, range }, context, outcome);
    range = performance.now() - started < share.windowMs ? nextRange(share.board, visited) : -1;
  }
  return result(outcome, stats);
}

function result(outcome: Outcome, stats: SearchStats): ShardSearchResult {
  const { files, limitHit, timedOut, resume } = outcome;
  return resume === null ? { files, limitHit, timedOut, stats } : { files, limitHit, timedOut, stats, resume };
}

interface Outcome {
  readonly files: ShardFileMatch[];
  found: number;
  limitHit: boolean;
  timedOut: boolean;
  checked: number;
  resume: ShardResume | null;
}

/** Where a range's candidates are claimed when tasks share them. */
interface SharedClaim {
  readonly board: Int32Array;
  readonly range: number;
}

function stopRaised(input: ShardSearchInput): boolean {
  return input.stop !== null && Atomics.load(input.stop, STOP) !== 0;
}

/** Whether the search still waits for its first matches (see FIRST_DELIVERED). */
function firstAwaited(input: ShardSearchInput): boolean {
  return input.stop !== null && input.stop.length > FIRST_DELIVERED && Atomics.load(input.stop, FIRST_DELIVERED) === 0;
}

/** One doc range: its candidates, then each one claimed (by this task alone, or shared) and verified. */
function searchRange(input: ShardSearchInput, range: { lo: number; hi: number; deleted: ReadonlySet<number> }, claim: SharedClaim | null, context: VerifyContext, outcome: Outcome): void {
  const { source, plan } = input;
  const { lo, hi } = range;
  const { stats } = context;
  const started = performance.now();
  const pathHits = needsPathHits(plan) ? matchPaths(input.compile(plan.patterns, plan.matcher), source, lo, hi) : null;
  let candidates = plan.expr ? exprCandidates(plan.expr, plan, source, lo, hi, pathHits, stats) : null;
  candidates = filterDocs(candidates, plan, source, lo, hi, input.compile);
  const docs = liveDocs(candidates, lo, hi, range.deleted);
  if (claim) publishCandidates(claim.board, claim.range, docs.length);
  const verifyStarted = performance.now();
  stats.candidatesMs += verifyStarted - started;
  const rangeContext = { ...context, pathHits };
  let sequential = 0;
  for (;;) {
    const index = claim ? claimCandidate(claim.board, claim.range) : sequential < docs.length ? sequential++ : -1;
    if (index < 0) break;
    stats.candidates++;
    if ((++outcome.checked & 63) === 0 && (Date.now() > input.deadline || stopRaised(input))) {
      outcome.timedOut = Date.now() > input.deadline;
      if (claim) closeRange(claim.board, claim.range);
      break;
    }
    const match = matchDoc(docs[index]!, input, rangeContext, input.limit - outcome.found);
    if (!match) continue;
    outcome.files.push(match);
    outcome.found += match.matchCount;
    if (outcome.found >= input.limit) {
      outcome.limitHit = true;
      if (claim) closeRange(claim.board, claim.range);
      break;
    }
    if (firstAwaited(input)) {
      outcome.resume = claim ? { range: claim.range } : { lo: docs[index]! + 1 };
      break;
    }
  }
  stats.verifyMs += performance.now() - verifyStarted;
}

function needsPathHits(plan: ShardPlan): boolean {
  return plan.atoms.some((a) => a.matchPath);
}

function liveDocs(candidates: DocSet, lo: number, hi: number, deleted: ReadonlySet<number>): Uint32Array {
  if (candidates !== null && deleted.size === 0) return candidates;
  const docs: number[] = [];
  forEachDoc(candidates, lo, hi, deleted, (doc) => docs.push(doc) > 0);
  return Uint32Array.from(docs);
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

/** What every range of the task verifies with: the compiled matchers, the test policy, the block queries. */
function verifyContext(input: ShardSearchInput, stats: SearchStats): VerifyContext {
  const { plan } = input;
  const needContent = plan.expr !== null && plan.atoms.some((a) => a.matchContent);
  const full = needContent ? input.compile(plan.patterns, plan.matcher) : null;
  const ascii = full && plan.asciiPatterns ? input.compile(plan.asciiPatterns, plan.matcher) : full;
  const matchers = full && ascii ? { full, ascii } : null;
  if (full) stats.matchers.push(full.engine);
  return {
    matchers, pathHits: null, stats, exactTexts: plan.exactTexts.map((t) => Buffer.from(t)),
    tests: { enabled: plan.patterns.length <= MAX_TEST_PATTERNS, tested: 0, passed: 0 },
    blockQueries: matchers ? blockQueries(plan, input.source) : null,
  };
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
