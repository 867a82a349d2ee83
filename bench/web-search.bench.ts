/**
 * The search page in Chromium against the stream API it reads, on the Linux 6.1 corpus with the
 * queries of bench/queries.ts: per query, the time from the page's request to its first result
 * painted and to its final status painted (Element Timing entries the page's script marks), beside
 * the stream API's own times for the same request over HTTP (its first `matches` event, `done`).
 * Run: `node dist/bench/web-search.bench.js` (QUARRY_BENCH_QUICK=1 for the small corpus;
 * QUARRY_BENCH_WEB_INDEX=<data dir> copies an index `quarry index` already built there instead of
 * building one, for runs one after another). When the Linux corpus cannot be prepared here, it says
 * so and measures the Quarry repository instead. The load average is recorded before and after.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../test/e2e/browser.js';
import { startServerProcess } from '../test/e2e/server-process.js';
import { corpusRoot, prepareCorpus } from './corpus.js';
import { REPO_ROOT } from './paths.js';
import { QUERIES } from './queries.js';
import { writeSideRun } from './record.js';
import { buildQuarryIndex, liftRateLimit, quarryQuery } from './tools/quarry.js';

const WARMUP = 2;
const SAMPLES = Number(process.env['QUARRY_BENCH_WEB_SAMPLES'] ?? 15);
/** Issue 19: the first result painted within this long after the request. */
const FIRST_PAINT_GOAL_MS = 100;
/** The stream parameters of the search page (src/api/pages/web/search-page.ts), which web/search.ts sends for later searches. */
const PAGE_PARAMS = { v: 'V3', display: '500', 'max-line-len': '400', cm: 'true', cl: '2' };

interface Corpus {
  readonly name: string;
  readonly repoName: string;
  readonly gitDir: string;
}

function chooseCorpus(quick: boolean): Corpus {
  try {
    const linux = prepareCorpus(corpusRoot(), quick);
    return { name: `Linux 6.1${quick ? ' (quick subset)' : ''} at ${linux.commit.slice(0, 12)}`, repoName: linux.repoName, gitDir: linux.gitDir };
  } catch (err) {
    const gitDir = resolve(REPO_ROOT, execFileSync('git', ['-C', REPO_ROOT, 'rev-parse', '--git-common-dir'], { encoding: 'utf8' }).trim());
    console.error(`web-search bench: the Linux corpus is not available (${(err as Error).message}); measuring the Quarry repository (${gitDir}) instead`);
    return { name: 'the Quarry repository (the Linux corpus was not available)', repoName: 'bench/quarry', gitDir };
  }
}

interface Sample {
  /** null when the search found nothing. */
  readonly firstMs: number | null;
  readonly doneMs: number;
  /** Pages only: when the response's first byte arrived, from the navigation's start. */
  readonly ttfbMs?: number;
  /** Pages only: the first contentful paint (the page's shell, with or without results): the browser's own floor. */
  readonly fcpMs?: number;
}

/** One stream request: when its first `matches` event and its `done` event arrived, from sending it. */
function streamOnce(agent: Agent, url: string, token: string): Promise<Sample> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    let firstMs: number | null = null;
    let text = '';
    const req = request(url, { agent, headers: { Authorization: `token ${token}`, Accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`the stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (firstMs === null && text.includes('event: matches\n')) firstMs = performance.now() - started;
      });
      res.on('end', () => {
        if (!text.includes('event: done\n') || text.includes('event: alert\n') || text.includes('event: error\n')) reject(new Error(`the stream did not end well: ${text.slice(-300)}`));
        resolvePromise({ firstMs, doneMs: performance.now() - started });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A page whose search never finishes painting fails the run instead of waiting for ever. */
const PAGE_TIMEOUT_MS = 120_000;

/** One page load: the paint times of the first result and the final status, from the navigation's start. */
async function pageOnce(page: Page, url: string): Promise<Sample> {
  await page.goto(url, { waitUntil: 'commit' });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${url}: no final status painted within ${PAGE_TIMEOUT_MS} ms`)), PAGE_TIMEOUT_MS);
  });
  return Promise.race([painted(page), timeout]).finally(() => clearTimeout(timer));
}

function painted(page: Page): Promise<Sample> {
  return page.evaluate(() => new Promise<Sample>((resolvePromise) => {
    const seen = new Map<string, number>();
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { identifier: string; renderTime: number }[]) seen.set(entry.identifier, entry.renderTime);
      const done = seen.get('search-done');
      const entries = performance.getEntriesByType.bind(performance) as (type: string) => { name: string; startTime: number; responseStart?: number }[];
      const ttfbMs = entries('navigation')[0]?.responseStart ?? 0;
      const fcpMs = entries('paint').find((p) => p.name === 'first-contentful-paint')?.startTime ?? 0;
      if (done !== undefined) resolvePromise({ firstMs: seen.get('first-result') ?? null, doneMs: done, ttfbMs, fcpMs });
    // Element Timing is the browser's, not in Node's types of PerformanceObserver.
    }).observe({ type: 'element' as 'mark', buffered: true });
  }));
}

async function series(run: () => Promise<Sample>): Promise<Sample[]> {
  for (let i = 0; i < WARMUP; i++) await run();
  const samples: Sample[] = [];
  for (let i = 0; i < SAMPLES; i++) samples.push(await run());
  return samples;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface QueryFigures {
  readonly id: string;
  readonly query: string;
  readonly streamFirstP50Ms: number | null;
  readonly streamDoneP50Ms: number;
  readonly pageTtfbP50Ms: number;
  readonly pageFcpP50Ms: number;
  readonly pageFirstP50Ms: number | null;
  readonly pageDoneP50Ms: number;
  readonly stream: readonly Sample[];
  readonly page: readonly Sample[];
}

function figures(id: string, query: string, stream: Sample[], page: Sample[]): QueryFigures {
  const firsts = (samples: Sample[]) => median(samples.flatMap((s) => (s.firstMs === null ? [] : [s.firstMs])));
  return {
    id, query, stream, page,
    streamFirstP50Ms: firsts(stream), streamDoneP50Ms: median(stream.map((s) => s.doneMs))!,
    pageTtfbP50Ms: median(page.map((s) => s.ttfbMs ?? 0))!, pageFcpP50Ms: median(page.map((s) => s.fcpMs ?? 0))!, pageFirstP50Ms: firsts(page), pageDoneP50Ms: median(page.map((s) => s.doneMs))!,
  };
}

const ms = (value: number | null): string => (value === null ? '—' : value.toFixed(1));
const ratio = (a: number | null, b: number | null): string => (a === null || b === null || b === 0 ? '—' : `${(a / b).toFixed(1)}×`);

interface LoadAverages {
  /** 1, 5 and 15 minute load averages (os.loadavg) as the measurements started and ended. */
  readonly before: readonly number[];
  readonly after: readonly number[];
}

const loads = (values: readonly number[]): string => values.map((v) => v.toFixed(2)).join(' / ');

function table(corpus: Corpus, rows: readonly QueryFigures[], load: LoadAverages): string {
  return [
    `# Search page in Chromium vs the stream API, ${corpus.name}`, '',
    `Each query ${SAMPLES} times after ${WARMUP} warm-up runs, one at a time. Page: a fresh navigation to /search?q=… in headless Chromium ` +
      '(playwright-core, Debian\'s chromium), which runs its search with the page (first results in the HTML, the rest read by its script), ' +
      'times from the navigation\'s start to the Element Timing paint of the first result and of the final status. ' +
      `Stream: GET /.api/search/stream with the page's parameters (${new URLSearchParams(PAGE_PARAMS)}) on a keep-alive connection, times from sending to the first \`matches\` event and to \`done\`. Medians in ms. ` +
      `Page TTFB: the navigation's responseStart (the page's head and shell arrive); page FCP: its first contentful paint, with or without results (the browser's floor). Load average (1/5/15 min): ${loads(load.before)} before, ${loads(load.after)} after.`, '',
    '| query | stream first match | page TTFB | page FCP | page first result painted | ratio | stream done | page done painted | ratio | first paint ≤ 100 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map((r) => `| ${r.id} | ${ms(r.streamFirstP50Ms)} | ${ms(r.pageTtfbP50Ms)} | ${ms(r.pageFcpP50Ms)} | ${ms(r.pageFirstP50Ms)} | ${ratio(r.pageFirstP50Ms, r.streamFirstP50Ms)} | ${ms(r.streamDoneP50Ms)} | ${ms(r.pageDoneP50Ms)} | ${ratio(r.pageDoneP50Ms, r.streamDoneP50Ms)} | ` +
      `${r.pageFirstP50Ms === null ? 'no results' : r.pageFirstP50Ms <= FIRST_PAINT_GOAL_MS ? 'pass' : 'FAIL'} |`),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const quick = process.env['QUARRY_BENCH_QUICK'] === '1';
  const corpus = chooseCorpus(quick);
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-web-bench-'));
  try {
    const prebuilt = process.env['QUARRY_BENCH_WEB_INDEX'];
    if (prebuilt) {
      console.error(`web-search bench: copying the index in ${prebuilt}`);
      cpSync(prebuilt, dataDir, { recursive: true });
    } else {
      console.error(`web-search bench: indexing ${corpus.repoName}`);
      await buildQuarryIndex(corpus.repoName, corpus.gitDir, dataDir);
    }
    await liftRateLimit(dataDir);
    const server = await startServerProcess(dataDir);
    const browser = await launchBrowser();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const token = server.adminToken;
      if (token === null) throw new Error(`${dataDir} already had a server started on it`);
      const context = await browser.newContext({ extraHTTPHeaders: { Authorization: `token ${token}` }, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const rows: QueryFigures[] = [];
      const loadBefore = loadavg();
      for (const q of QUERIES) {
        const query = quarryQuery(q);
        console.error(`web-search bench: ${q.id}`);
        const stream = await series(() => streamOnce(agent, `${server.url}/.api/search/stream?${new URLSearchParams({ q: query, ...PAGE_PARAMS })}`, token));
        const paged = await series(() => pageOnce(page, `${server.url}/search?${new URLSearchParams({ q: query })}`));
        rows.push(figures(q.id, query, stream, paged));
      }
      const load = { before: loadBefore, after: loadavg() };
      const summary = table(corpus, rows, load);
      process.stdout.write(summary);
      await writeSideRun(quick ? 'web-search-quick' : 'web-search', summary, { corpus: corpus.name, samples: SAMPLES, warmup: WARMUP, loadAverage: load, queries: rows });
    } finally {
      agent.destroy();
      await browser.close();
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
