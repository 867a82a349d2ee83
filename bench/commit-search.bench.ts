/**
 * commit_search against `git log --grep` / `--author` on generated repositories (≥ 50,000 commits
 * in total, made with git fast-import): outputs must agree before anything is timed, then p50/p99
 * of the tool call (all repositories, newest 100 plus the exact total) against git log over each
 * repository in parallel. Run: node dist/bench/commit-search.bench.js
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ANONYMOUS } from '../src/auth/principal.js';
import type { McpServices } from '../src/api/mcp/services.js';
import { commitSearchTool } from '../src/api/mcp/tools/commit-search.js';
import type { ToolContext } from '../src/api/mcp/tool.js';
import { createHistoryService } from '../src/history/history-service.js';
import { createRepoHistory } from '../src/history/repo-history.js';
import { openCommitStore } from '../src/index/commits/commit-store.js';
import { machineInfo, writeSideRun } from './record.js';
import { createEnginePool } from '../src/pool/engine-pool.js';

const REPOS = Number(process.env['QUARRY_BENCH_COMMIT_REPOS'] ?? 4);
const COMMITS_PER_REPO = Number(process.env['QUARRY_BENCH_COMMITS'] ?? 15_000);
const QUARRY_RUNS = 200;
const GIT_RUNS = 30;
const WORDS = ['parser', 'tokenizer', 'cache', 'index', 'router', 'config', 'logging', 'metrics', 'auth', 'session', 'render', 'layout', 'schema', 'query', 'worker', 'queue'];
const VERBS = ['fix', 'add', 'refactor', 'update', 'remove', 'document', 'test', 'speed up'];
const run = promisify(execFile);

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** A fast-import stream: COMMITS_PER_REPO commits on main, each changing one of 300 files. */
function fastImportStream(repoIndex: number): string {
  const rand = random(repoIndex + 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const parts: string[] = [];
  let date = 1_500_000_000;
  for (let i = 1; i <= COMMITS_PER_REPO; i++) {
    date += 60 + Math.floor(rand() * 3600);
    const author = Math.floor(rand() * 60);
    // Rare words (≈0.5% of commits) make selective message queries, as real greps usually are.
    const rare = rand() < 0.005 ? ' deadlock' : '';
    const message = `${pick(VERBS)} ${pick(WORDS)} in ${pick(WORDS)}${rare}\n\nDetails about change ${i} of repo ${repoIndex}.\n`;
    const content = `// revision ${i}\nexport const value${i} = ${Math.floor(rand() * 1e6)};\n`;
    parts.push(`commit refs/heads/main\nmark :${i}\nauthor Dev ${author} <dev${author}@example.com> ${date} +0000\n`);
    parts.push(`committer Dev ${author} <dev${author}@example.com> ${date} +0000\ndata ${Buffer.byteLength(message)}\n${message}`);
    if (i > 1) parts.push(`from :${i - 1}\n`);
    parts.push(`M 100644 inline src/m${Math.floor(rand() * 300)}.ts\ndata ${Buffer.byteLength(content)}\n${content}\n`);
  }
  return parts.join('');
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function time(runs: number, task: () => Promise<unknown>): Promise<{ p50: number; p99: number; samples: number }> {
  await task();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await task();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: runs };
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'quarry-commit-bench-'));
  try {
    const repos = Array.from({ length: REPOS }, (_, i) => ({ name: `bench.example/repo${i}`, id: i + 1, gitDir: join(root, `repo${i}.git`) }));
    const generated = performance.now();
    for (const [i, repo] of repos.entries()) {
      execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', repo.gitDir]);
      execFileSync('git', ['--git-dir', repo.gitDir, 'fast-import', '--quiet'], { input: fastImportStream(i), maxBuffer: 1 << 30 });
    }
    const generateMs = performance.now() - generated;
    const store = openCommitStore(join(root, 'data'));
    const pool = createEnginePool({ threads: 2 });
    const service = createHistoryService(store, pool);
    const indexed = performance.now();
    for (const repo of repos) await service.update(repo);
    const indexMs = performance.now() - indexed;
    const history = createRepoHistory(service, { get: (name) => repos.find((r) => r.name === name), list: () => repos });
    const ctx: ToolContext = {
      principal: { ...ANONYMOUS, canRead: () => true }, signal: new AbortController().signal, origin: 'http://bench', maxAnswerTokens: 100_000,
      services: { history } as unknown as McpServices,
    };
    const names = repos.map((r) => r.name);
    const cases = [
      { label: 'message term "deadlock"', args: { messageTerms: ['deadlock'] }, gitFlags: ['-i', '-F', '--grep=deadlock'] },
      { label: 'message term "tokenizer"', args: { messageTerms: ['tokenizer'] }, gitFlags: ['-i', '-F', '--grep=tokenizer'] },
      { label: 'author "dev17@"', args: { authors: ['dev17@'] }, gitFlags: ['-i', '-F', '--author=dev17@'] },
    ];
    const results = [];
    for (const c of cases) {
      const gitAll = async () => (await Promise.all(repos.map(async (r) => (await run('git', ['--git-dir', r.gitDir, 'log', '--format=%H %ct', ...c.gitFlags, 'HEAD'], { maxBuffer: 1 << 28 })).stdout))).join('');
      const gitLines = (await gitAll()).split('\n').filter((l) => l !== '');
      const all = await history.searchCommits({ repos: names, canRead: () => true, count: Infinity, contentTerms: [], revisions: [], criteria: { messageTerms: [], authors: [], committers: [], files: [], useRegex: false, ...c.args } });
      assert.deepEqual(all.commits.map((h) => h.commit.oid).sort(), gitLines.map((l) => l.split(' ')[0]!).sort(), `${c.label}: Quarry and git log disagree`);
      const answer = await commitSearchTool.run({ repos: names, ...c.args, count: 100 }, ctx);
      assert.match(answer.text, new RegExp(`${gitLines.length.toLocaleString('en-US')} commits`), `${c.label}: the answer reports the git total`);
      const quarry = await time(QUARRY_RUNS, () => commitSearchTool.run({ repos: names, ...c.args, count: 100 }, ctx));
      const git = await time(GIT_RUNS, gitAll);
      results.push({ query: c.label, matches: gitLines.length, quarry, gitLog: git, speedupP50: git.p50 / quarry.p50 });
    }
    await pool.close();
    await store.close();
    const machine = await machineInfo();
    const lines = [
      `# commit_search vs git log (${machine.kind}, ${new Date().toISOString()})`, '',
      `${REPOS} repositories × ${COMMITS_PER_REPO.toLocaleString('en-US')} commits = ${(REPOS * COMMITS_PER_REPO).toLocaleString('en-US')} commits; generated in ${(generateMs / 1000).toFixed(1)} s, commit index built in ${(indexMs / 1000).toFixed(1)} s.`,
      `Quarry: the commit_search tool over all repositories (newest 100 and the exact total), ${QUARRY_RUNS} runs, warm. git: \`git log --format=%H <flags> HEAD\` per repository, all in parallel, ${GIT_RUNS} runs.`, '',
      '| query | matches | Quarry p50 | Quarry p99 | git log p50 | git log p99 | speed-up p50 |', '|---|---:|---:|---:|---:|---:|---:|',
      ...results.map((r) => `| ${r.query} | ${r.matches} | ${r.quarry.p50.toFixed(2)} ms | ${r.quarry.p99.toFixed(2)} ms | ${r.gitLog.p50.toFixed(1)} ms | ${r.gitLog.p99.toFixed(1)} ms | ${r.speedupP50.toFixed(1)}x |`),
      '',
    ];
    const summary = lines.join('\n');
    process.stdout.write(summary);
    await writeSideRun('commit-search', summary, { repos: REPOS, commitsPerRepo: COMMITS_PER_REPO, generateMs, indexMs, results });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
