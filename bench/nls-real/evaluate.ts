/**
 * Scores nls_search on the real-code questions (bench/nls-real/questions): recall@1, recall@5 and
 * MRR of the answering file, each half of the split apart, per language and per kind, beside a
 * grep-style baseline (ripgrep counts of the question's words, files ranked by how many of them
 * they hold). nls_search is called as an agent calls it, with the question scoped to its repository,
 * and the files are read from the answer text. Prints Markdown, records the run, and lists the
 * tuning half's misses (never the held-out half's) with --misses.
 * Run: `bash bench/nav-real/fetch.sh && node dist/bench/nls-real/evaluate.js [--misses] [project…]`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { nlsSearchTool } from '../../src/api/mcp/tools/nls-search.js';
import { isStopword } from '../../src/api/mcp/tools/nls-terms.js';
import { REPO_ROOT } from '../paths.js';
import { writeSideRun } from '../record.js';
import { indexCorpus, projectOf, repoOf } from '../nav-real/indexed-corpus.js';
import { halfOf, PROJECT_LANGUAGES, type Half } from '../nav-real/labels.js';

const QUESTIONS_DIR = join(REPO_ROOT, 'bench', 'nls-real', 'questions');
const KINDS = ['plain', 'identifier', 'tests-docs'] as const;

interface Question {
  readonly id: string;
  readonly project: string;
  readonly question: string;
  readonly answers: readonly string[];
  readonly kind: (typeof KINDS)[number];
}

interface Ranked {
  readonly question: Question;
  /** Files in the order the tool gave them, relative to the project root. */
  readonly files: readonly string[];
  /** 1-based rank of the first answering file, or null when none was listed. */
  readonly rank: number | null;
}

function loadQuestions(corpus: string, only: readonly string[]): Question[] {
  const out: Question[] = [];
  for (const name of readdirSync(QUESTIONS_DIR).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(join(QUESTIONS_DIR, name), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const q = JSON.parse(line) as Question;
      if (only.length > 0 && !only.includes(q.project)) continue;
      for (const answer of q.answers) {
        if (!existsSync(join(corpus, q.project, answer))) throw new Error(`${q.id}: answer ${answer} is not a file of ${q.project}`);
      }
      out.push(q);
    }
  }
  return out;
}

function ranked(question: Question, files: readonly string[]): Ranked {
  const at = files.findIndex((f) => question.answers.includes(f));
  return { question, files, rank: at < 0 ? null : at + 1 };
}

const FILE_HEADER = /^# (\S+) \u2013 (.+)$/gm;

async function askQuarry(questions: readonly Question[], corpus: string, projects: readonly string[], log: (line: string) => void, millis: number[]): Promise<Ranked[]> {
  const { services, ctx } = await indexCorpus(corpus, projects, log);
  try {
    const out: Ranked[] = [];
    for (const q of questions) {
      const query = `repo:^${repoOf(q.project).replaceAll('.', '\\.')}$ ${q.question}`;
      const started = performance.now();
      const { text } = await nlsSearchTool.run({ query }, ctx);
      millis.push(performance.now() - started);
      const files = [...text.matchAll(FILE_HEADER)].filter((m) => projectOf(m[1]!) === q.project).map((m) => m[2]!);
      out.push(ranked(q, files));
    }
    return out;
  } finally {
    await services.close();
  }
}

/** The baseline an agent gets from grep: files ranked by how many of the question's words they hold, then by how often. */
function askGrep(questions: readonly Question[], corpus: string): Ranked[] {
  return questions.map((q) => {
    const words = [...new Set(q.question.toLowerCase().match(/[a-z0-9_]+/g) ?? [])].filter((w) => w.length >= 3 && !isStopword(w));
    const perFile = new Map<string, { terms: number; hits: number }>();
    for (const word of words) {
      let out = '';
      try {
        out = execFileSync('rg', ['--ignore-case', '--count', '--fixed-strings', '--no-messages', '--', word, '.'], { cwd: join(corpus, q.project), encoding: 'utf8', maxBuffer: 64 << 20 });
      } catch (err) {
        // rg exits 1 when nothing matched.
        out = (err as { stdout?: string }).stdout ?? '';
      }
      for (const line of out.split('\n')) {
        const cut = line.lastIndexOf(':');
        if (cut <= 0) continue;
        const file = line.slice(0, cut).replace(/^\.\//, '');
        const seen = perFile.get(file) ?? { terms: 0, hits: 0 };
        perFile.set(file, { terms: seen.terms + 1, hits: seen.hits + Number(line.slice(cut + 1)) });
      }
    }
    const files = [...perFile.entries()].sort((a, b) => b[1].terms - a[1].terms || b[1].hits - a[1].hits || (a[0] < b[0] ? -1 : 1)).map(([f]) => f);
    return ranked(q, files.slice(0, 15));
  });
}

/** p50 and p99 of the call times, nearest rank. */
function latency(millis: readonly number[]): string {
  const sorted = [...millis].sort((a, b) => a - b);
  const at = (q: number): string => `${(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0).toFixed(0)} ms`;
  return `p50 ${at(0.5)}, p99 ${at(0.99)}, max ${at(1)}`;
}

const pct = (n: number, d: number): string => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);

function figures(rs: readonly Ranked[]): string {
  if (rs.length === 0) return '– | – | –';
  const at = (k: number): number => rs.filter((r) => r.rank !== null && r.rank <= k).length;
  const mrr = rs.reduce((n, r) => n + (r.rank === null ? 0 : 1 / r.rank), 0) / rs.length;
  return `${at(1)}/${rs.length} (${pct(at(1), rs.length)}) | ${at(5)}/${rs.length} (${pct(at(5), rs.length)}) | ${mrr.toFixed(3)}`;
}

function inHalf(rs: readonly Ranked[], half: Half): Ranked[] {
  return rs.filter((r) => halfOf(r.question.id) === half);
}

function table(runs: readonly { tool: string; results: readonly Ranked[] }[], title: string, keyOf: (q: Question) => string, keys: readonly string[]): string[] {
  const out = [`| ${title} | tool | half | recall@1 | recall@5 | MRR |`, '|---|---|---|---|---|---|'];
  for (const key of keys) {
    for (const run of runs) {
      const mine = run.results.filter((r) => keyOf(r.question) === key);
      if (mine.length === 0) continue;
      for (const half of ['tuning', 'held-out'] as const) out.push(`| ${key} | ${run.tool} | ${half} | ${figures(inHalf(mine, half))} |`);
    }
  }
  return out;
}

function misses(results: readonly Ranked[]): string[] {
  return inHalf(results, 'tuning').filter((r) => r.rank !== 1).map((r) =>
    `- ${r.question.id} [${r.question.kind}] "${r.question.question}": expected ${r.question.answers.join(' or ')}, ${r.rank === null ? 'not listed' : `at ${r.rank}`}; got ${r.files.slice(0, 3).join(', ') || 'nothing'}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.filter((a) => !a.startsWith('--'));
  const corpus = process.env['QUARRY_NAV_CORPUS'] ?? join(REPO_ROOT, 'bench', 'corpus', 'nav-real');
  const questions = loadQuestions(corpus, only);
  const projects = [...new Set(questions.map((q) => q.project))].sort();
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const millis: number[] = [];
  const runs = [
    { tool: 'Quarry nls_search', results: await askQuarry(questions, corpus, projects, log, millis) },
    { tool: 'grep baseline (ripgrep word counts)', results: askGrep(questions, corpus) },
  ];
  const languages = [...new Set(projects.map((p) => PROJECT_LANGUAGES[p]!))].sort();
  const text = [
    `Questions: ${questions.length} in ${projects.length} projects (${languages.join(', ')}); ${inHalf(runs[0]!.results, 'tuning').length} tuning, ${inHalf(runs[0]!.results, 'held-out').length} held-out.`,
    '',
    ...table(runs, 'set', () => 'all', ['all']), '',
    ...table(runs, 'language', (q) => PROJECT_LANGUAGES[q.project]!, languages), '',
    ...table(runs, 'kind', (q) => q.kind, KINDS), '',
    `nls_search latency per question (whole tool call, one at a time, load average ${loadavg()[0]!.toFixed(1)}): ${latency(millis)}`, '',
  ].join('\n');
  console.log(text);
  if (args.includes('--misses')) console.log(['nls_search misses (not first) on the tuning half:', ...misses(runs[0]!.results)].join('\n'));
  if (only.length === 0) {
    await writeSideRun('nls-real', text, runs.map((r) => ({ tool: r.tool, results: r.results.map((x) => ({ id: x.question.id, rank: x.rank, top: x.files.slice(0, 5) })) })));
  }
}

await main();
