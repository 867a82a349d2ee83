/**
 * History A/B (issue 20): diff_search and commit_search with contentTerms (every page through POST
 * /.api/mcp) and type:diff (stream API) on two builds' `quarry serve` at once, each over its own copy of one prepared data directory,
 * turns alternating between the builds, with `git log -G` timed in the same turns; commit lists
 * checked equal to git's before anything is timed. Prepare the data directory with the corpora
 * indexed by this build (history-index.bench.ts's steps), then:
 * QUARRY_AB_OTHER=/path/to/other/checkout QUARRY_AB_DATA=/path/to/prepared/data QUARRY_AB_TOKEN=<admin token> node dist/bench/history-ab.bench.js [turns]
 * (QUARRY_AB_GITDIRS: the directory holding <repo>.git mirrors of the bundles). Prints a table; writes nothing.
 */
import { cpSync, rmSync } from 'node:fs';
import { spawn, execFileSync } from 'node:child_process';
import { REPO_ROOT } from './paths.js';
import { loadavg } from 'node:os';
const turns = Number(process.argv[2] ?? 3);
const NAMES = { requests: 'github.com/psf/requests', ripgrep: 'github.com/BurntSushi/ripgrep', gin: 'github.com/gin-gonic/gin', koa: 'github.com/koajs/koa' };
const PATS = (process.env.PATS ?? 'requests:proxy_auth,requests:deprecat,ripgrep:deprecat,ripgrep:mmap,gin:EPIPE,gin:context.Context,koa:koa-compose,koa:ContentLength').split(',').map((s) => s.split(':'));
const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (see the header of bench/history-ab.bench.ts)`);
  return value;
};
const token = env('QUARRY_AB_TOKEN');
const other = env('QUARRY_AB_OTHER');
const data = env('QUARRY_AB_DATA');
const gitDirs = env('QUARRY_AB_GITDIRS');
/** fetch, sent once more when the server had already closed the kept-alive connection it reused (searches are safe to repeat). */
async function fetchRetryingClosed(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw err;
    return fetch(url, init);
  }
}
interface Server { url: string; stop(): Promise<unknown> }
function start(W: string, dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, [`${W}/bin/quarry.js`, 'serve', '--listen', '127.0.0.1:0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => { output += c.toString(); const m = /listening on (http:\/\/\S+)/.exec(output); if (m) resolve({ url: m[1], stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) }); });
    child.once('exit', (code) => reject(new Error('exit ' + code + output)));
  });
}
async function diffSearchAll(url: string, repo: string, pattern: string): Promise<string[]> {
  const oids: string[] = []; let cursor: string | undefined;
  for (;;) {
    const args = { pattern, repos: [repo], count: 50, ...(cursor === undefined ? {} : { cursor }) };
    const response = await fetchRetryingClosed(`${url}/.api/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `token ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'diff_search', arguments: args } }) });
    const body = await response.json() as { result?: { content: { text: string }[]; isError?: boolean } };
    if (response.status !== 200 || body.result === undefined || body.result.isError) throw new Error(JSON.stringify(body).slice(0, 300));
    const text = body.result.content[0]!.text;
    if (text.includes('time limit')) throw new Error('time limit ' + repo + pattern);
    for (const m of text.matchAll(/\/-\/commit\/([0-9a-f]{40})/g)) if (oids.at(-1) !== m[1]) oids.push(m[1]!);
    const next = /cursor: "([^"]+)"/.exec(text);
    if (next === null) return oids;
    cursor = next[1]!;
  }
}
/** commit_search with the pattern as its one content term, every page: the 10-character ids it lists, in order. */
async function commitSearchAll(url: string, repo: string, pattern: string): Promise<string[]> {
  const oids: string[] = []; let cursor: string | undefined;
  for (;;) {
    const args = { repos: [repo], contentTerms: [pattern], count: 100, ...(cursor === undefined ? {} : { cursor }) };
    const response = await fetchRetryingClosed(`${url}/.api/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `token ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'commit_search', arguments: args } }) });
    const body = await response.json() as { result?: { content: { text: string }[]; isError?: boolean } };
    if (response.status !== 200 || body.result === undefined || body.result.isError) throw new Error(JSON.stringify(body).slice(0, 300));
    const text = body.result.content[0]!.text;
    for (const m of text.matchAll(new RegExp(`^${repo.replace(/[.]/g, '\\.')} ([0-9a-f]{10}) `, 'gm'))) oids.push(m[1]!);
    const next = /cursor: "([^"]+)"/.exec(text);
    if (next === null) return oids;
    cursor = next[1]!;
  }
}
async function typeDiff(url: string, repo: string, pattern: string): Promise<string[]> {
  const q = `repo:^${repo.replace(/[.]/g, '\\.')}$ type:diff count:all patterntype:literal ${pattern}`;
  const response = await fetchRetryingClosed(`${url}/.api/search/stream?${new URLSearchParams({ q, v: 'V3' })}`, { headers: { Authorization: `token ${token}`, Accept: 'text/event-stream' } });
  const body = await response.text();
  if (response.status !== 200 || body.includes('event: alert\n') || body.includes('event: error\n')) throw new Error(`type:diff ${response.status}: ${body.slice(0, 400)}`);
  const oids: string[] = [];
  for (const event of body.split('\n\n')) {
    if (!event.startsWith('event: matches\n')) continue;
    for (const match of JSON.parse(event.slice(event.indexOf('data: ') + 6)) as { oid?: string }[]) if (match.oid) oids.push(match.oid);
  }
  return oids.sort();
}
function gitLogG(repo: string, literal: string): string[] {
  const gitDir = `${gitDirs}/${repo}.git`;
  const branch = execFileSync('git', ['--git-dir', gitDir, 'for-each-ref', '--format=%(refname)', 'refs/heads/main', 'refs/heads/master'], { encoding: 'utf8' }).split('\n')[0]!;
  const ere = literal.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
  return execFileSync('git', ['--git-dir', gitDir, 'log', '--format=%H', '-i', `-G${ere}`, branch, '--'], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' }, maxBuffer: 1 << 28 }).split('\n').filter(Boolean);
}
const loadBefore = loadavg();
// Each server over its own copy: both write their stores and sync their mirrors.
for (const side of ['A', 'B']) {
  rmSync(`${data}-${side}`, { recursive: true, force: true });
  cpSync(data, `${data}-${side}`, { recursive: true });
}
const A = await start(other, `${data}-A`);
const B = await start(REPO_ROOT, `${data}-B`);
type Samples = Record<'git' | 'base' | 'this' | 'tbase' | 'tthis' | 'cbase' | 'cthis', number[]> & { commits: number };
const samples: Record<string, Samples> = {};
const timed = async (f: () => unknown): Promise<number> => { const t = performance.now(); await f(); return performance.now() - t; };
try {
  for (const [repo, p] of PATS as [keyof typeof NAMES, string][]) { // warm + check equal
    const g = gitLogG(repo, p); const a = await diffSearchAll(A.url, NAMES[repo], p); const b = await diffSearchAll(B.url, NAMES[repo], p);
    if (JSON.stringify(a) !== JSON.stringify(g) || JSON.stringify(b) !== JSON.stringify(g)) throw new Error(`differ ${repo} ${p}: git ${g.length} base ${a.length} this ${b.length}`);
    const ta = await typeDiff(A.url, NAMES[repo], p); const tb = await typeDiff(B.url, NAMES[repo], p);
    if (JSON.stringify(ta) !== JSON.stringify([...g].sort()) || JSON.stringify(tb) !== JSON.stringify([...g].sort())) throw new Error(`type:diff differs ${repo} ${p}`);
    // commit_search lists newest committer date first, git log in its walk: the same commits, compared as sets of short ids.
    const short = g.map((oid) => oid.slice(0, 10)).sort();
    const ca = (await commitSearchAll(A.url, NAMES[repo], p)).sort(); const cb = (await commitSearchAll(B.url, NAMES[repo], p)).sort();
    if (JSON.stringify(ca) !== JSON.stringify(short) || JSON.stringify(cb) !== JSON.stringify(short)) throw new Error(`commit_search differs ${repo} ${p}: git ${short.length} base ${ca.length} this ${cb.length}`);
    samples[`${repo}:${p}`] = { git: [], base: [], this: [], tbase: [], tthis: [], cbase: [], cthis: [], commits: g.length };
  }
  for (let t = 0; t < turns; t++) for (const [repo, p] of PATS as [keyof typeof NAMES, string][]) {
    const s = samples[`${repo}:${p}`]!;
    const order: ('base' | 'this')[] = t % 2 === 0 ? ['base', 'this'] : ['this', 'base'];
    s.git.push(await timed(() => gitLogG(repo, p)));
    for (const which of order) s[which].push(await timed(() => diffSearchAll(which === 'base' ? A.url : B.url, NAMES[repo], p)));
    for (const which of order) s[`t${which}`].push(await timed(() => typeDiff(which === 'base' ? A.url : B.url, NAMES[repo], p)));
    for (const which of order) s[`c${which}`].push(await timed(() => commitSearchAll(which === 'base' ? A.url : B.url, NAMES[repo], p)));
  }
} finally {
  await A.stop();
  await B.stop();
  for (const side of ['A', 'B']) rmSync(`${data}-${side}`, { recursive: true, force: true });
}
const med = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** The checkout's commit, or its directory when it is an exported tree rather than a git checkout. */
const revisionOf = (dir: string): string => {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return dir;
  }
};
console.log(`this ${revisionOf(REPO_ROOT)} vs other ${revisionOf(other)}; load before ${loadBefore.map((x) => x.toFixed(2)).join(' ')} after ${loadavg().map((x) => x.toFixed(2)).join(' ')}; median of ${turns} turns, ms`);
console.log('| repo:pattern | commits | git log -G | diff_search base | this | base/this | git/base | git/this | type:diff base | this | git/base | git/this | commit_search base | this | git/base | git/this |');
for (const [k, s] of Object.entries(samples)) {
  const g = med(s.git), a = med(s.base), b = med(s.this), ta = med(s.tbase), tb = med(s.tthis), ca = med(s.cbase), cb = med(s.cthis);
  console.log(`| ${k} | ${s.commits} | ${g.toFixed(0)} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(a / b).toFixed(2)} | ${(g / a).toFixed(1)}x | ${(g / b).toFixed(1)}x | ${ta.toFixed(0)} | ${tb.toFixed(0)} | ${(g / ta).toFixed(1)}x | ${(g / tb).toFixed(1)}x | ${ca.toFixed(0)} | ${cb.toFixed(0)} | ${(g / ca).toFixed(1)}x | ${(g / cb).toFixed(1)}x |`);
}
