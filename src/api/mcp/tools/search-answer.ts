/**
 * The answer both search tools give: file sections in rank order (at most 15, while the token budget
 * lasts), repository lines, then a summary that says what was left out and how to get it. It reads
 * file text for context lines; it never runs a search or decides the ranking.
 */
import type { FileMatch, RepoMatch, SkippedNotice } from '../../../model/result.js';
import { AnswerBuilder } from '../answer.js';
import { plural, splitLines } from '../format.js';
import type { ToolContext } from '../tool.js';
import { CONTEXT_LINES, MAX_CHUNK_CHARS, renderFileSection, type LineHit } from './search-chunks.js';

export const MAX_FILES = 15;
const READ_CONCURRENCY = 4;
/** Room kept for the summary lines after the sections. */
const NOTICE_RESERVE_TOKENS = 200;

export interface RankedFile {
  readonly match: FileMatch;
  readonly hits: readonly LineHit[];
}

export interface SearchAnswerInput {
  /** Lines printed before the results (nls_search's "Searched for:"). */
  readonly preface?: string;
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
}

export async function renderSearchAnswer(input: SearchAnswerInput, ctx: ToolContext): Promise<string> {
  const builder = new AnswerBuilder(ctx.maxAnswerTokens, NOTICE_RESERVE_TOKENS);
  if (input.preface !== undefined) builder.add(`${input.preface}\n`);
  const reposShown = addRepoLines(builder, input.repos);
  const candidates = input.files.slice(0, MAX_FILES);
  const texts = await readAll(candidates.map((f) => f.match), ctx);
  let filesShown = 0;
  let chunksLeftOut = 0;
  let chunksCut = 0;
  for (let i = 0; i < candidates.length; i++) {
    const section = sectionOf(candidates[i]!, texts[i]!);
    if (!builder.add(section.text)) break;
    filesShown++;
    chunksLeftOut += section.chunksLeftOut;
    chunksCut += section.chunksCut;
  }
  const notice = summarize(input, { reposShown, filesShown, budgetCut: candidates.length - filesShown, chunksLeftOut, chunksCut, maxAnswerTokens: ctx.maxAnswerTokens });
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

function sectionOf(file: RankedFile, text: string | null): ReturnType<typeof renderFileSection> {
  const { repository, path, lineMatches } = file.match;
  if (text !== null) return renderFileSection(repository, path, splitLines(text), file.hits, CONTEXT_LINES);
  // The blob could not be read (a race with re-indexing): show the matched lines the engine returned.
  const lines: string[] = [];
  for (const lm of lineMatches) lines[lm.lineNumber] = lm.line;
  return renderFileSection(repository, path, lines, file.hits, 0);
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

interface Shown {
  readonly reposShown: number;
  readonly filesShown: number;
  readonly budgetCut: number;
  readonly chunksLeftOut: number;
  readonly chunksCut: number;
  readonly maxAnswerTokens: number;
}

function summarize(input: SearchAnswerInput, shown: Shown): string {
  const lines: string[] = [];
  const totalFiles = input.files.length;
  const totalRepos = input.repos.length;
  if (totalFiles === 0 && totalRepos === 0) {
    lines.push(`No results. ${input.noResultsAdvice}`);
  } else {
    const found: string[] = [];
    if (totalRepos > 0) found.push(plural(totalRepos, 'repository', 'repositories'));
    if (totalFiles > 0) found.push(`${plural(input.matchCount, 'match', 'matches')} in ${plural(totalFiles, 'file')}`);
    lines.push(`Found ${found.join(' and ')}; showing ${describeShown(shown, totalFiles, totalRepos)}.`);
  }
  if (shown.budgetCut > 0 || shown.reposShown < totalRepos) {
    lines.push(`Left out to fit the answer budget (${shown.maxAnswerTokens.toLocaleString('en-US')} tokens): ${budgetLeftOut(shown, input)}. Narrow the query with repo: or file: filters to see them.`);
  }
  if (totalFiles > MAX_FILES) {
    lines.push(`Only the top ${MAX_FILES} files are shown; ${plural(totalFiles - MAX_FILES, 'more file')} matched. Add repo: or file: filters or a more specific pattern to see others.`);
  }
  if (shown.chunksLeftOut > 0) lines.push(`${plural(shown.chunksLeftOut, 'more chunk')} in the files shown (at most 3 per file); use read_file to see whole files.`);
  if (shown.chunksCut > 0) lines.push(`${plural(shown.chunksCut, 'chunk')} cut at ${MAX_CHUNK_CHARS} characters; use read_file for the rest.`);
  if (input.limitHit) lines.push(`The search hit its result limit, so more files may match: ${input.limitAdvice}`);
  for (const notice of input.skipped) {
    // The limit notice repeats limitHit, which has its own line with advice.
    if (notice.reason === 'shard-match-limit') continue;
    lines.push(`Note: ${notice.title}: ${notice.message}`);
  }
  return lines.join('\n');
}

function describeShown(shown: Shown, totalFiles: number, totalRepos: number): string {
  const parts: string[] = [];
  if (totalRepos > 0) parts.push(`${shown.reposShown} of ${plural(totalRepos, 'repository', 'repositories')}`);
  if (totalFiles > 0) parts.push(`${shown.filesShown} of ${plural(totalFiles, 'file')}`);
  return parts.join(' and ');
}

function budgetLeftOut(shown: Shown, input: SearchAnswerInput): string {
  const parts: string[] = [];
  if (shown.reposShown < input.repos.length) parts.push(plural(input.repos.length - shown.reposShown, 'repository', 'repositories'));
  if (shown.budgetCut > 0) parts.push(plural(shown.budgetCut, 'file'));
  return parts.join(' and ');
}
