/**
 * History A/B with one server at a time (issue 20): history-ab.bench.ts runs both builds' servers
 * at once, and at load 25-35 the one started first answered 2-4x faster whichever build it was;
 * here each build's `quarry serve` runs alone over its own copy of the prepared data directory,
 * in rounds old, new, new, old, with `git log -G` timed in the same windows. diff_search and
 * commit_search (contentTerms) through POST /.api/mcp, every page; type:diff through the stream
 * API; commit lists checked equal to git's first (diff_search in git's order, the others as sets).
 * QUARRY_AB_OTHER=/path/to/old/checkout QUARRY_AB_DATA=/path/to/prepared/data QUARRY_AB_TOKEN=<admin token>
 * QUARRY_AB_GITDIRS=<dir of <repo>.git mirrors> node dist/bench/history-seq.bench.js [runs per round]
 * Prints a table; writes nothing.
 */
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { REPO_ROOT } from './paths.js';

const RUNS = Number(process.argv[2] ?? 3);
const NAMES: Readonly<Record<string, string>> = { requests: 'github.com/psf/requests', ripgrep: 'github.com/BurntSushi/ripgrep', gin: 'github.com/gin-gonic/gin', koa: 'github.com/koajs/koa' };
const PATS = (process.env['PATS'] ?? 'ripgrep:mmap,koa:koa-compose,requests:deprecat,gin:context.Context').split(',').map((s) => s.split(':') as [string, string]);
const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (see the header of bench/history-seq.bench.ts)`);
  return value;
};
const token = env('QUARRY_AB_TOKEN');
const builds: Readonly<Record<'old' | 'new', string>> = { old: env('QUARRY_AB_OTHER'), new: REPO_ROOT };
const data = env('QUARRY_AB_DATA');
const gitDirs = env('QUARRY_AB_GITDIRS');

async function call(url: string, name: string, args: object): Promise<string> {
  const init = { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `token ${token}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }) };
  let response: Response;
  try {
    response = await fetch(`${url}/.api/mcp`, init);
  } catch (err) {
    // The server had closed the kept-alive connection: a search is safe to send again.
    if ((err as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw err;
    response = await fetch(`${url}/.api/mcp`, init);
  }
  const body = await response.json() as { result?: { content: { text: string }[]; isError?: boolean } };
  if (response.status !== 200 || body.result === undefined || body.result.isError) throw new Error(`${name}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.result.content[0]!.text;
}

/** Every page, cursor after cursor: the ids `pattern` finds, consecutive repeats once. */
async function pages(url: string, name: string, args: object, pattern: RegExp): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const text = await call(url, name, { ...args, ...(cursor === undefined ? {} : { cursor }) });
    for (const m of text.matchAll(pattern)) if (out.at(-1) !== m[1]) out.push(m[1]!);
    const next = /cursor: "([^"]+)"/.exec(text);
    if (next === null) return out;
    cursor = next[1]!;
  }
}

type Tool = 'diff_search' | 'commit_search' | 'type_diff';
const TOOLS: Readonly<Record<Tool, (url: string, repo: string, p: string) => Promise<string[]>>> = {
  diff_search: (url, repo, p) => pages(url, 'diff_search', { pattern: p, repos: [repo], count: 50 }, /\/-\/commit\/([0-9a-f]{40})/g),
  commit_search: (url, repo, p) => pages(url, 'commit_search', { repos: [repo], contentTerms: [p], count: 100 }, new RegExp(`^${repo.replace(/\./g, '\\.')} ([0-9a-f]{10}) `, 'gm')),
  type_diff: async (url, repo, p) => {
    const q = `repo:^${repo.replace(/[.]/g, '\\.')}$ type:diff count:all patterntype:literal ${p}`;
    const body = await (await fetch(`${url}/.api/search/stream?${new URLSearchParams({ q, v: 'V3' })}`, { headers: { Authorization: `token ${token}`, Accept: 'text/event-stream' } })).text();
    if (body.includes('event: alert\n') || body.includes('event: error\n')) throw new Error(`type:diff: ${body.slice(0, 300)}`);
    return [...body.matchAll(/"oid":"([0-9a-f]{40})"/g)].map((m) => m[1]!);
  },
};

function gitLogG(repo: string, literal: string): string[] {
  const gitDir = `${gitDirs}/${repo}.git`;
  const branch = execFileSync('git', ['--git-dir', gitDir, 'for-each-ref', '--format=%(refname)', 'refs/heads/main', 'refs/heads/master'], { encoding: 'utf8' }).split('\n')[0]!;
  const ere = literal.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
  return execFileSync('git', ['--git-dir', gitDir, 'log', '--format=%H', '-i', `-G${ere}`, branch, '--'], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' }, maxBuffer: 1 << 28 }).split('\n').filter(Boolean);
}

function start(dir: string, dataDir: string): Promise<{ url: string; stop(): Promise<unknown> }> {
  const child = spawn(process.execPath, [`${dir}/bin/quarry.js`, 'serve', '--listen', '127.0.0.1:0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) resolve({ url: m[1]!, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) });
    });
    child.once('exit', (code) => reject(new Error(`exit ${code}: ${output}`)));
  });
}

const times = new Map<string, number[]>();
const record = (key: string, ms: number): void => void times.set(key, [...(times.get(key) ?? []), ms]);
const loadBefore = loadavg();
for (const which of ['old', 'new', 'new', 'old'] as const) {
  const copy = `${data}-seq-${which}`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(data, copy, { recursive: true });
  const server = await start(builds[which], copy);
  try {
    for (const [repo, p] of PATS) {
      const git = gitLogG(repo, p);
      for (const [tool, run] of Object.entries(TOOLS) as [Tool, typeof TOOLS[Tool]][]) {
        const found = await run(server.url, NAMES[repo]!, p);
        const want = tool === 'commit_search' ? git.map((o) => o.slice(0, 10)).sort() : tool === 'type_diff' ? [...git].sort() : git;
        const have = tool === 'diff_search' ? found : [...found].sort();
        if (JSON.stringify(have) !== JSON.stringify(want)) throw new Error(`${which} ${tool} ${repo}:${p}: ${have.length} commits, git log -G lists ${want.length}`);
      }
      for (let r = 0; r < RUNS; r++) {
        let t = performance.now();
        gitLogG(repo, p);
        record(`git ${repo}:${p}`, performance.now() - t);
        for (const [tool, run] of Object.entries(TOOLS)) {
          t = performance.now();
          await run(server.url, NAMES[repo]!, p);
          record(`${which} ${tool} ${repo}:${p}`, performance.now() - t);
        }
      }
    }
  } finally {
    await server.stop();
    rmSync(copy, { recursive: true, force: true });
  }
}
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`old ${builds.old} vs new ${REPO_ROOT}; load before ${loadBefore.map((x) => x.toFixed(1)).join(' ')} after ${loadavg().map((x) => x.toFixed(1)).join(' ')}; median of ${RUNS * 2} runs per build, ms`);
console.log('| repo:pattern | tool | git log -G | old | new | old/new | git/old | git/new |');
for (const [repo, p] of PATS) {
  for (const tool of Object.keys(TOOLS)) {
    const g = median(times.get(`git ${repo}:${p}`)!);
    const o = median(times.get(`old ${tool} ${repo}:${p}`)!);
    const n = median(times.get(`new ${tool} ${repo}:${p}`)!);
    console.log(`| ${repo}:${p} | ${tool} | ${g.toFixed(0)} | ${o.toFixed(0)} | ${n.toFixed(0)} | ${(o / n).toFixed(2)} | ${(g / o).toFixed(1)}x | ${(g / n).toFixed(1)}x |`);
  }
}
