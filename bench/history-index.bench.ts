/**
 * History at index speed (issue 20): on the real repositories of ../shared/corpora, `diff_search`
 * through the MCP HTTP API (every page, cursor after cursor) and `type:diff` through the stream
 * API against `git log -G` for the same patterns on the default branch, commits checked identical
 * before anything is timed; plus the history index's build time and size against the packed size.
 * Run: node dist/bench/history-index.bench.js (QUARRY_BENCH_HISTORY_REPOS=ripgrep,gin for some of them)
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, removeDir } from '../test/git/fixtures.js';
import { startServerProcess } from '../test/e2e/server-process.js';
import { updateHistoryIndex } from '../src/history/history-indexer.js';
import { openHistoryIndexes } from '../src/index/history/history-store.js';
import { createEnginePool } from '../src/pool/engine-pool.js';
import { machineInfo, writeSideRun } from './record.js';
import { REPO_ROOT } from './paths.js';
import { buildQuarryIndex, liftRateLimit, QUARRY_THREADS } from './tools/quarry.js';

const CORPORA = join(REPO_ROOT, '..', 'shared', 'corpora');
/** Per repository: a rare and a less rare literal (git log -G -i lists from a few to a few dozen commits). */
const PATTERNS: Readonly<Record<string, readonly string[]>> = {
  requests: ['proxy_auth', 'deprecat'],
  ripgrep: ['deprecat', 'mmap'],
  gin: ['EPIPE', 'context.Context'],
  koa: ['koa-compose', 'ContentLength'],
};
/** The names the repositories are added under, as their upstreams publish them. */
const NAMES: Readonly<Record<string, string>> = {
  requests: 'github.com/psf/requests', ripgrep: 'github.com/BurntSushi/ripgrep', gin: 'github.com/gin-gonic/gin', koa: 'github.com/koajs/koa',
};
const RUNS = Number(process.env['QUARRY_BENCH_HISTORY_RUNS'] ?? 5);
const GOAL_SPEEDUP = 10;

interface Row {
  readonly repo: string;
  readonly pattern: string;
  readonly commits: number;
  readonly gitMs: number;
  readonly diffSearchMs: number;
  readonly typeDiffMs: number;
}

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timedMedian<T>(run: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const value = await run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return { ms: median(samples), value };
}

/** `git log -G` as Quarry's diff search defines a match: case-insensitive literal, C locale, the default branch. */
function gitLogG(gitDir: string, branch: string, literal: string): string[] {
  const ere = literal.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
  const out = execFileSync('git', ['--git-dir', gitDir, 'log', '--format=%H', '-i', `-G${ere}`, branch, '--'], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' }, maxBuffer: 1 << 28 });
  return out.split('\n').filter((l) => l !== '');
}

let reconnects = 0;

/**
 * fetch, sent once more when the server had already closed the kept-alive connection it reused
 * (both requests are searches, safe to repeat); the time of both attempts counts.
 */
async function fetchRetryingClosed(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw err;
    reconnects++;
    return fetch(url, init);
  }
}

/** Every page of diff_search over HTTP, following the cursor; the full commit ids of the hits, in order. */
async function diffSearchAll(url: string, token: string, repo: string, pattern: string): Promise<string[]> {
  const oids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const args = { pattern, repos: [repo], count: 50, ...(cursor === undefined ? {} : { cursor }) };
    const response = await fetchRetryingClosed(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `token ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'diff_search', arguments: args } }),
    });
    const body = await response.json() as { result?: { content: { text: string }[]; isError?: boolean } };
    if (response.status !== 200 || body.result === undefined || body.result.isError) throw new Error(`diff_search answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    const text = body.result.content[0]!.text;
    if (text.includes('time limit')) throw new Error(`diff_search hit its time limit for ${pattern} in ${repo}`);
    for (const match of text.matchAll(/\/-\/commit\/([0-9a-f]{40})/g)) if (oids.at(-1) !== match[1]) oids.push(match[1]!);
    const next = /cursor: "([^"]+)"/.exec(text);
    if (next === null) return oids;
    cursor = next[1]!;
  }
}

/** type:diff through the stream API: the commit ids of the matches, newest first. */
async function typeDiff(url: string, token: string, repo: string, pattern: string): Promise<string[]> {
  const q = `repo:^${repo.replace(/[.]/g, '\\.')}$ type:diff count:all patterntype:literal ${pattern}`;
  const response = await fetchRetryingClosed(`${url}/.api/search/stream?${new URLSearchParams({ q, v: 'V3' })}`, { headers: { Authorization: `token ${token}`, Accept: 'text/event-stream' } });
  const body = await response.text();
  if (response.status !== 200 || body.includes('event: alert\n') || body.includes('event: error\n')) throw new Error(`type:diff answered ${response.status}: ${body.slice(0, 400)}`);
  const oids: string[] = [];
  for (const event of body.split('\n\n')) {
    if (!event.startsWith('event: matches\n')) continue;
    for (const match of JSON.parse(event.slice(event.indexOf('data: ') + 6)) as { oid?: string }[]) if (match.oid) oids.push(match.oid);
  }
  return oids;
}

function sameCommits(label: string, actual: readonly string[], expected: readonly string[]): void {
  if (actual.length !== expected.length || actual.some((oid, i) => oid !== expected[i])) {
    throw new Error(`${label}: ${actual.length} commits, git log -G lists ${expected.length}; first difference at ${actual.findIndex((oid, i) => oid !== expected[i])}`);
  }
}

function packedBytes(gitDir: string): number {
  const out = execFileSync('git', ['--git-dir', gitDir, 'count-objects', '-v'], { encoding: 'utf8' });
  return Number(/size-pack: (\d+)/.exec(out)![1]) * 1024;
}

async function main(): Promise<void> {
  const only = process.env['QUARRY_BENCH_HISTORY_REPOS']?.split(',');
  const present = Object.keys(PATTERNS).filter((name) => existsSync(join(CORPORA, `${name}.bundle`)) && (only === undefined || only.includes(name)));
  if (present.length === 0) throw new Error(`no bundles in ${CORPORA}: the corpora live beside the project (../shared/corpora/README.md)`);
  const loadBefore = loadavg();
  const root = makeTempDir('quarry-history-bench');
  const rows: Row[] = [];
  const builds: { repo: string; commits: number; buildMs: number; indexBytes: number; packBytes: number }[] = [];
  try {
    const data = join(root, 'data');
    const branches = new Map<string, string>();
    for (const name of present) {
      const gitDir = join(root, `${name}.git`);
      execFileSync('git', ['clone', '--quiet', '--mirror', join(CORPORA, `${name}.bundle`), gitDir]);
      branches.set(name, execFileSync('git', ['--git-dir', gitDir, 'for-each-ref', '--format=%(refname)', 'refs/heads/main', 'refs/heads/master'], { encoding: 'utf8' }).split('\n')[0]!);
      // The history index alone, in a data directory of its own, with the server's two index threads.
      const pool = createEnginePool({ threads: QUARRY_THREADS });
      const indexes = openHistoryIndexes(join(root, `alone-${name}`));
      const started = performance.now();
      const outcome = await updateHistoryIndex(indexes.of(1), gitDir, pool);
      builds.push({ repo: name, commits: outcome.added, buildMs: performance.now() - started, indexBytes: outcome.sizeBytes, packBytes: packedBytes(gitDir) });
      await indexes.close();
      await pool.close();
      await buildQuarryIndex(NAMES[name]!, gitDir, data);
    }
    await liftRateLimit(data);
    const server = await startServerProcess(data);
    try {
      const token = server.adminToken!;
      for (const name of present) {
        const gitDir = join(root, `${name}.git`);
        for (const pattern of PATTERNS[name]!) {
          const git = await timedMedian(() => gitLogG(gitDir, branches.get(name)!, pattern));
          const viaMcp = await timedMedian(() => diffSearchAll(`${server.url}/.api/mcp`, token, NAMES[name]!, pattern));
          const viaStream = await timedMedian(() => typeDiff(server.url, token, NAMES[name]!, pattern));
          sameCommits(`diff_search ${name} ${pattern}`, viaMcp.value, git.value);
          // type:diff orders by committer date, git log by its walk: the same commits, compared as sets.
          sameCommits(`type:diff ${name} ${pattern}`, [...viaStream.value].sort(), [...git.value].sort());
          rows.push({ repo: name, pattern, commits: git.value.length, gitMs: git.ms, diffSearchMs: viaMcp.ms, typeDiffMs: viaStream.ms });
        }
      }
    } catch (err) {
      process.stderr.write(`server (exit ${server.child.exitCode}, signal ${server.child.signalCode}) output:\n${server.output().slice(-4000)}\n`);
      throw err;
    } finally {
      await server.stop();
    }
  } finally {
    removeDir(root);
  }
  const loadAfter = loadavg();
  const machine = await machineInfo();
  const load = (l: readonly number[]): string => l.map((n) => n.toFixed(2)).join(', ');
  const ratio = (git: number, ours: number): string => `${(git / ours).toFixed(1)}x${git / ours >= GOAL_SPEEDUP ? '' : ' (below goal)'}`;
  const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(2);
  const summary = [
    `# History index: diff search vs git log -G (${machine.kind}, ${new Date().toISOString()})`, '',
    `Median of ${RUNS} warm runs each. git: \`LC_ALL=C git log --format=%H -i -G<escaped literal> <default branch>\`. diff_search: every page (count 50, cursor after cursor) through POST /.api/mcp on a real \`quarry serve\`. type:diff: \`repo:^name$ type:diff count:all patterntype:literal <pattern>\` through /.api/search/stream. Commit lists checked identical to git's before timing (diff_search in git's order; type:diff, which orders by committer date, as a set). Goal: ≥ ${GOAL_SPEEDUP}x. Load average (1, 5, 15 min) at the start ${load(loadBefore)}, at the end ${load(loadAfter)}: the machine is shared. Requests sent again after the server had closed a kept-alive connection: ${reconnects}.`, '',
    '| repo | pattern | commits | git log -G ms | diff_search ms | speed-up | type:diff ms | speed-up |', '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.repo} | \`${r.pattern}\` | ${r.commits} | ${r.gitMs.toFixed(0)} | ${r.diffSearchMs.toFixed(1)} | ${ratio(r.gitMs, r.diffSearchMs)} | ${r.typeDiffMs.toFixed(1)} | ${ratio(r.gitMs, r.typeDiffMs)} |`),
    '', `History index build (every commit reachable from branches and tags, ${QUARRY_THREADS} index threads) and size against \`git count-objects -v\` size-pack:`, '',
    '| repo | commits indexed | build s | index MiB | size-pack MiB | index / pack |', '|---|---:|---:|---:|---:|---:|',
    ...builds.map((b) => `| ${b.repo} | ${b.commits} | ${(b.buildMs / 1000).toFixed(1)} | ${mib(b.indexBytes)} | ${mib(b.packBytes)} | ${(b.indexBytes / b.packBytes).toFixed(2)} |`),
    '',
  ].join('\n');
  process.stdout.write(summary);
  await writeSideRun('history-index', summary, { runs: RUNS, rows, builds, loadBefore, loadAfter, reconnects });
}

await main();
