/**
 * Scores the offline deep search researcher on the real-code questions of bench/nls-real (labelled
 * by reading the code before deep search existed): whether an answering file is among the cited
 * sources, per half of the split (bench/nav-real/labels.ts halfOf), with the p50 time and the tool
 * calls per answer. Each question runs as a conversation of its own, scoped to its repository as an
 * agent would ask it. Tuning uses the tuning half only (`--tuning`); held-out misses are never listed.
 * Run: `bash bench/nav-real/fetch.sh && node dist/bench/deepsearch-real/evaluate.js [--tuning] [--misses]`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { researchTools } from '../../src/api/mcp/research-tools.js';
import { createDeepSearch } from '../../src/server/mcp.js';
import type { Question } from '../../src/model/deepsearch.js';
import { REPO_ROOT } from '../paths.js';
import { writeSideRun } from '../record.js';
import { indexCorpus, repoOf } from '../nav-real/indexed-corpus.js';
import { halfOf, type Half } from '../nav-real/labels.js';

const QUESTIONS_DIR = join(REPO_ROOT, 'bench', 'nls-real', 'questions');

interface Labelled {
  readonly id: string;
  readonly project: string;
  readonly question: string;
  readonly answers: readonly string[];
}

interface Scored {
  readonly id: string;
  readonly half: Half;
  readonly hit: boolean;
  readonly cited: readonly string[];
  readonly millis: number;
  readonly toolCalls: number;
  readonly error?: string;
}

function loadQuestions(corpus: string, halves: readonly Half[]): Labelled[] {
  const out: Labelled[] = [];
  for (const name of readdirSync(QUESTIONS_DIR).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(join(QUESTIONS_DIR, name), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const q = JSON.parse(line) as Labelled;
      if (!halves.includes(halfOf(q.id))) continue;
      for (const answer of q.answers) if (!existsSync(join(corpus, q.project, answer))) throw new Error(`${q.id}: answer ${answer} is not a file of ${q.project}`);
      out.push(q);
    }
  }
  return out;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function row(half: string, rs: readonly Scored[]): string {
  const hits = rs.filter((r) => r.hit).length;
  const calls = rs.reduce((n, r) => n + r.toolCalls, 0) / Math.max(1, rs.length);
  const sources = rs.reduce((n, r) => n + r.cited.length, 0) / Math.max(1, rs.length);
  return `| ${half} | ${hits}/${rs.length} (${((100 * hits) / Math.max(1, rs.length)).toFixed(1)}%) | ${sources.toFixed(1)} | ${percentile(rs.map((r) => r.millis), 0.5)} | ${percentile(rs.map((r) => r.millis), 0.9)} | ${calls.toFixed(1)} |`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const halves: Half[] = args.includes('--tuning') ? ['tuning'] : ['tuning', 'held-out'];
  const corpus = process.env['QUARRY_NAV_CORPUS'] ?? join(REPO_ROOT, 'bench', 'corpus', 'nav-real');
  const questions = loadQuestions(corpus, halves);
  const projects = [...new Set(questions.map((q) => q.project))].sort();
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const { services, ctx } = await indexCorpus(corpus, projects, log);
  const deepSearch = createDeepSearch(services, log);
  const asker = { userId: 1, tools: (signal: AbortSignal) => researchTools({ ...ctx, signal }) };
  const scored: Scored[] = [];
  try {
    for (const q of questions) {
      const repo = repoOf(q.project);
      const started = deepSearch.ask(asker, ctx.origin, `repo:^${repo.replaceAll('.', '\\.')}$ ${q.question}`);
      const done = await deepSearch.waitFor(started.id, started.questions[0]!.id, 600_000, new AbortController().signal);
      const answer: Question = done!.questions[0]!;
      const cited = [...new Set(answer.sources.filter((s) => s.repo === repo).map((s) => s.path))];
      scored.push({
        id: q.id, half: halfOf(q.id), hit: cited.some((p) => q.answers.includes(p)), cited, millis: answer.stats.timeMillis, toolCalls: answer.stats.toolCalls,
        ...(answer.error === undefined ? {} : { error: answer.error.kind }),
      });
    }
  } finally {
    await services.close();
  }
  const text = [
    `Offline deep search researcher on ${questions.length} labelled real-code questions over ${projects.length} projects: is an answering file among the cited sources.`,
    '',
    '| half | answering file cited | sources per answer | p50 ms | p90 ms | tool calls per answer |',
    '|---|---|---|---|---|---|',
    ...halves.map((h) => row(h, scored.filter((r) => r.half === h))),
    '',
  ].join('\n');
  console.log(text);
  if (args.includes('--misses')) {
    console.log(['Tuning-half misses:', ...scored.filter((r) => r.half === 'tuning' && !r.hit).map((r) => `- ${r.id}: "${questions.find((q) => q.id === r.id)!.question}" expected ${questions.find((q) => q.id === r.id)!.answers.join(' or ')}; cited ${r.cited.join(', ') || 'nothing'}${r.error ? ` (${r.error})` : ''}`)].join('\n'));
  }
  if (halves.length === 2) await writeSideRun('deepsearch-real', text, scored);
}

await main();
