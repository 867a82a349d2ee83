/**
 * One shard task, start to finish, in one worker thread: candidates from trigram postings and
 * path hits → filters → scan each candidate once → evaluate the expression → line matches and
 * score. Stops early at the task's match limit, its deadline, or when the stop flag is raised.
 */
import { isQuarryError } from '../errors.js';
import type { CompiledMatcher, PatternSpec } from '../matcher/matcher.js';
import type { SegmentSource } from '../index/store.js';
import type { LineMatch, OffsetAndLength } from '../model/result.js';
import { emptyStats, type SearchStats } from '../model/stats.js';
import { DOC_FLAG_UTF8 } from '../index/format.js';
import { evalTrigramQuery } from './candidates.js';
import { forEachDoc, intersect, union, type DocSet } from './doc-set.js';
import { filterDocs } from './filters.js';
import { toLineMatches, codePoints } from './lines.js';
import { docsWithHits, matchPaths, type PathHits } from './path-matches.js';
import type { ExprPlan, ShardPlan } from './plan.js';
import { scoreFile } from './score.js';
import { evalExpr, positiveRanges, scanContent } from './verify.js';

export interface ShardFileMatch {
  readonly doc: number;
  readonly path: string;
  readonly lineMatches: LineMatch[];
  readonly pathMatches: OffsetAndLength[];
  readonly matchCount: number;
  readonly score: number;
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
  const { source, plan } = input;
  const needContent = plan.expr !== null && plan.atoms.some((a) => a.matchContent);
  const matcher = needContent ? input.compile(plan.patterns, plan.matcher) : null;
  if (matcher) stats.matchers.push(matcher.engine);
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
    const match = matchDoc(doc, source, plan, matcher, pathHits, stats);
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

function matchDoc(doc: number, source: SegmentSource, plan: ShardPlan, matcher: CompiledMatcher | null, pathHits: PathHits | null, stats: SearchStats): ShardFileMatch | null {
  const pathRanges = plan.atoms.map((a, i) => (a.matchPath && pathHits ? pathHits[i]!.get(doc) ?? null : null));
  let contentRanges: (number[] | null)[] = plan.atoms.map(() => null);
  let content: Uint8Array | null = null;
  if (matcher) {
    content = source.content(doc);
    stats.docsScanned++;
    stats.bytesScanned += content.length;
    try {
      contentRanges = scanContent(matcher, content, (source.flags(doc) & DOC_FLAG_UTF8) !== 0, plan.patterns.length);
    } catch (err) {
      if (!isQuarryError(err)) throw err;
      stats.shardsFailed++;
      return null;
    }
    contentRanges = contentRanges.map((r, i) => (plan.atoms[i]!.matchContent ? r : null));
  }
  if (plan.expr && !evalExpr(plan.expr, plan, { content: contentRanges, path: pathRanges })) return null;
  const path = source.path(doc);
  const pathMatches = pathOffsets(path, positiveRanges(plan, pathRanges));
  const lineMatches = content ? toLineMatches(content, positiveRanges(plan, contentRanges)) : [];
  const matchCount = lineMatches.length || 1;
  return { doc, path, lineMatches, pathMatches, matchCount, score: scoreFile(lineMatches, pathMatches.length > 0, plan.exactTexts) };
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
