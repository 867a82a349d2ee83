/**
 * The answer both search tools give, one page of it: repository lines, then file sections in rank
 * order (at most 15 a page, while the token budget lasts), then a summary that says what the page
 * holds, whether the totals are exact, and the exact call for the next page. It reads file text for
 * context lines; it never runs a search or decides the ranking.
 */
import type { FileMatch, RepoMatch, SkippedNotice } from '../../../model/result.js';
import { AnswerBuilder, estimateTokens } from '../answer.js';
import { plural, splitLines } from '../format.js';
import type { ToolContext } from '../tool.js';
import { changedNote, cursorAfter, cursorPlaceholder, nextPageLine, pageQuestion, pageStart } from './list-page.js';
import { scopeAtLine } from '../../../symbols/navigation/scopes.js';
import { enclosingSymbol } from './enclosing-symbol.js';
import { CONTEXT_LINES, MAX_CHUNK_CHARS, renderFileSection, type EnclosingAt, type LineHit } from './search-chunks.js';
import { unmatchedRepoFilters } from './unmatched-repos.js';

export const MAX_FILES = 15;
const READ_CONCURRENCY = 4;
/** Room kept for the summary lines after the sections, besides the next-call line. */
const NOTICE_RESERVE_TOKENS = 200;
/** Notices that mean some of the repositories were not searched to the end: the totals are then lower bounds. */
const PARTIAL_REASONS: ReadonlySet<SkippedNotice['reason']> = new Set(['shard-timeout', 'shard-failed']);

export interface RankedFile {
  readonly match: FileMatch;
  readonly hits: readonly LineHit[];
}

/** keyword_search's and nls_search's arguments. */
export interface SearchArgs {
  readonly query: string;
  readonly after?: string;
}

/** The call being answered: the tool, its query and its cursor (keyword_search and nls_search share the format). */
export interface SearchPage {
  readonly tool: 'keyword_search' | 'nls_search';
  readonly query: string;
  readonly after?: string | undefined;
}

export interface SearchAnswerInput {
  readonly page: SearchPage;
  /** Lines printed before the results (nls_search's "Searched for:"). */
  readonly preface?: string;
  /** Every matched file, in rank order: the same query must give the same order on every call. */
  readonly files: readonly RankedFile[];
  readonly repos: readonly RepoMatch[];
  /** Matched lines across all files (the engine's count, or the ranker's). */
  readonly matchCount: number;
  readonly limitHit: boolean;
  /** Sentence telling the agent how to get the results the limit cut off. */
  readonly limitAdvice: string;
  readonly skipped: readonly SkippedNotice[];
  /** Sentence telling the agent how to find something when nothing matched. */
  readonly noResultsAdvice: string;
  /** The repositories the caller may read, asked only when nothing matched, to say a repo: filter matched none. */
  readonly readableRepos: () => readonly string[];
  /** The query (or, for nls_search, its filters) whose repo: filters scoped the search. */
  readonly filterQuery: string;
}

/** Where the page began and ended, as indexes into repositories then files. */
interface Shown {
  readonly start: number;
  readonly end: number;
  readonly changed: boolean;
  readonly budgetSpent: boolean;
  readonly chunksLeftOut: number;
  readonly chunksCut: number;
  readonly maxAnswerTokens: number;
  readonly nextCall: string | null;
}

export async function renderSearchAnswer(input: SearchAnswerInput, ctx: ToolContext): Promise<string> {
  const { page, repos, files } = input;
  const keys = [...repos.map((r) => `repo ${r.repository}`), ...files.map((f) => `${f.match.repository}@${f.match.commit}:${f.match.path}`)];
  const question = pageQuestion(page.tool, page.query);
  const { start, changed } = pageStart(page.after, question, page.tool, keys);
  const nextCallWith = (after: string): string => nextPageLine(page.tool, { query: page.query, after });
  const reserve = NOTICE_RESERVE_TOKENS + estimateTokens(nextCallWith(cursorPlaceholder(question, keys.length)));
  const builder = new AnswerBuilder(ctx.maxAnswerTokens, reserve);
  if (input.preface !== undefined) builder.add(`${input.preface}\n`);
  let end = start + addRepoLines(builder, repos.slice(start));
  let budgetSpent = end < repos.length;
  let chunksLeftOut = 0;
  let chunksCut = 0;
  if (!budgetSpent) {
    const candidates = files.slice(end - repos.length, end - repos.length + MAX_FILES);
    const texts = await readAll(candidates.map((f) => f.match), ctx);
    for (let i = 0; i < candidates.length; i++) {
      const section = sectionOf(candidates[i]!, texts[i]!, await placesIn(candidates[i]!.match, ctx));
      if (!builder.add(section.text)) {
        budgetSpent = true;
        break;
      }
      end++;
      chunksLeftOut += section.chunksLeftOut;
      chunksCut += section.chunksCut;
    }
  }
  const nextCall = end < keys.length && end > start ? nextCallWith(cursorAfter(question, keys, end - 1)) : null;
  const notice = summarize(input, { start, end, changed, budgetSpent, chunksLeftOut, chunksCut, maxAnswerTokens: ctx.maxAnswerTokens, nextCall });
  return builder.finish(notice, '\n');
}

/** One section holding as many `# repo` lines as fit; returns how many did. */
function addRepoLines(builder: AnswerBuilder, repos: readonly RepoMatch[]): number {
  let text = '';
  let shown = 0;
  for (const repo of repos) {
    const line = `# ${repo.repository}\n`;
    if (text.length + line.length > builder.remainingChars) break;
    text += line;
    shown++;
  }
  if (shown > 0) builder.add(text);
  return shown;
}

function sectionOf(file: RankedFile, text: string | null, enclosingAt: EnclosingAt): ReturnType<typeof renderFileSection> {
  const { repository, path, lineMatches } = file.match;
  if (text !== null) return renderFileSection(repository, path, splitLines(text), file.hits, CONTEXT_LINES, enclosingAt);
  // The blob could not be read (a race with re-indexing): show the matched lines the engine returned.
  const lines: string[] = [];
  for (const lm of lineMatches) lines[lm.lineNumber] = lm.line;
  return renderFileSection(repository, path, lines, file.hits, 0);
}

/**
 * Where the lines of a matched file sit, from the symbol table of the indexed commit; nothing for a
 * file matched at another revision, whose lines the table does not describe.
 */
async function placesIn(match: FileMatch, ctx: ToolContext): Promise<EnclosingAt> {
  const none: EnclosingAt = () => null;
  const symbols = ctx.services.symbols?.fileSymbols(match.repository, match.path) ?? null;
  if (symbols === null || symbols.definitions.length === 0 || (await ctx.services.defaultCommit(match.repository)) !== match.commit) return none;
  const { definitions } = symbols;
  return (start, end) => {
    let scope = scopeAtLine(symbols, Math.min(end, start + CONTEXT_LINES));
    // A definition whose header the chunk shows needs no label: say what holds it instead.
    for (let hops = 0; scope >= 0 && hops < definitions.length; hops++) {
      const header = definitions[scope]!.nameRange.startLine;
      if (header < start || header > end) break;
      scope = definitions[scope]!.parent;
    }
    const place = enclosingSymbol(definitions, scope);
    return place === 'at file level' ? null : place;
  };
}

/** File texts in order, read a few at a time; null where the file is gone or is a path-only match. */
async function readAll(matches: readonly FileMatch[], ctx: ToolContext): Promise<(string | null)[]> {
  const out: (string | null)[] = new Array(matches.length).fill(null);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < matches.length) {
      const i = next++;
      const m = matches[i]!;
      if (m.lineMatches.length === 0) continue;
      const bytes = await ctx.services.repos.readBlob(m.repository, m.commit, m.path);
      out[i] = bytes === null ? null : bytes.toString('utf8');
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, matches.length) }, worker));
  return out;
}

function summarize(input: SearchAnswerInput, shown: Shown): string {
  const lines: string[] = [];
  const totalRepos = input.repos.length;
  const total = totalRepos + input.files.length;
  const exact = !input.limitHit && !input.skipped.some((n) => PARTIAL_REASONS.has(n.reason));
  const unmatched = total === 0 ? unmatchedRepoFilters(input.filterQuery, input.readableRepos()) : [];
  if (unmatched.length > 0) {
    for (const { filter, closest } of unmatched) {
      lines.push(`No repository matches ${filter}, so nothing was searched.${closest.length > 0 ? ` Did you mean ${closest.join(', ')}?` : ' Use list_repos to see the repositories.'}`);
    }
  } else if (total === 0) {
    lines.push(`No results. ${input.noResultsAdvice}`);
  } else if (shown.start >= total) {
    lines.push(`No more results after that cursor: the search found ${found(input, exact)}.`);
  } else if (shown.end === shown.start) {
    lines.push(`Found ${found(input, exact)}; the answer budget of ${plural(shown.maxAnswerTokens, 'token')} is too small to show the next one (number ${shown.start + 1}). Narrow the query with repo: or file: filters.`);
  } else {
    const spent = shown.budgetSpent ? ` (the answer budget of ${plural(shown.maxAnswerTokens, 'token')} is spent)` : '';
    lines.push(`Found ${found(input, exact)}; showing ${describeShown(shown, totalRepos, input.files.length)}${spent}.`);
  }
  if (shown.chunksLeftOut > 0) lines.push(`${plural(shown.chunksLeftOut, 'more chunk')} in the files shown (at most 3 per file); use read_file to see whole files.`);
  if (shown.chunksCut > 0) lines.push(`${plural(shown.chunksCut, 'chunk')} cut at ${MAX_CHUNK_CHARS} characters; use read_file for the rest.`);
  if (input.limitHit) lines.push(`The search hit its result limit, so more files may match${shown.nextCall === null ? '' : ' than the pages will show'}: ${input.limitAdvice}`);
  for (const notice of input.skipped) {
    // The limit notice repeats limitHit, which has its own line with advice.
    if (notice.reason === 'shard-match-limit') continue;
    lines.push(`Note: ${notice.title}: ${notice.message}`);
  }
  if (shown.changed) lines.push(changedNote('results'));
  if (shown.nextCall !== null) lines.push(shown.nextCall);
  return lines.join('\n');
}

/** "2 repositories and 40 matches in 38 files", lower bounds said as such. */
function found(input: SearchAnswerInput, exact: boolean): string {
  const parts: string[] = [];
  if (input.repos.length > 0) parts.push(plural(input.repos.length, 'repository', 'repositories'));
  if (input.files.length > 0) parts.push(`${plural(input.matchCount, 'match', 'matches')} in ${plural(input.files.length, 'file')}`);
  return `${exact ? '' : 'at least '}${parts.join(' and ')}`;
}

/** "16-30 of 38 files": the repositories and files of this page, numbered from 1 over the whole answer. */
function describeShown(shown: Shown, totalRepos: number, totalFiles: number): string {
  const range = (from: number, to: number, total: number, one: string, many: string): string | null => {
    if (to <= from) return null;
    return `${from + 1 === to ? to : `${from + 1}-${to}`} of ${plural(total, one, many)}`;
  };
  const clip = (i: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, i)) - lo;
  const repos = range(clip(shown.start, 0, totalRepos), clip(shown.end, 0, totalRepos), totalRepos, 'repository', 'repositories');
  const files = range(clip(shown.start, totalRepos, totalRepos + totalFiles), clip(shown.end, totalRepos, totalRepos + totalFiles), totalFiles, 'file', 'files');
  return [repos, files].filter((part) => part !== null).join(' and ');
}
