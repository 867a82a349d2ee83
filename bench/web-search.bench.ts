/**
 * The search page in Chromium against the stream API it reads, on the Linux 6.1 corpus with the
 * queries of bench/queries.ts: per query, the time from the page's request to its first result
 * painted and to its final status painted (Element Timing entries the page's script marks), beside
 * the stream API's own times for the same request over HTTP (its first `matches` event, `done`).
 * Run: `node dist/bench/web-search.bench.js` (QUARRY_BENCH_QUICK=1 for the small corpus;
 * QUARRY_BENCH_WEB_INDEX=<data dir> copies an index `quarry index` already built there instead of
 * building one, for runs one after another). When the Linux corpus cannot be prepared here, it says
 * so and measures the Quarry repository instead. The load average is recorded before and after.
 * Beside the queries, the browser's floor in the same run: the first contentful paint of a minimal
 * static page (served by this process) and of Quarry's own search start page.
 * A/B: QUARRY_BENCH_WEB_OTHER=<checkout with its dist built> serves the same index with that build
 * too, page loads alternating between the two builds, each query's final result count checked equal;
 * such a run is a comparison on a shared machine and is not recorded in bench/runs/.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../test/e2e/browser.js';
import { startServerProcess, type ServerProcess } from '../test/e2e/server-process.js';
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
  /** Pages only: the results in the list once the final status is painted. */
  readonly results?: number;
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
      // The page's DOM, not in Node's types.
      const results = (globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } }).document.querySelectorAll('#search-results > li').length;
      if (done !== undefined) resolvePromise({ firstMs: seen.get('first-result') ?? null, doneMs: done, ttfbMs, fcpMs, results });
    // Element Timing is the browser's, not in Node's types of PerformanceObserver.
    }).observe({ type: 'element' as 'mark', buffered: true });
  }));
}

/** A page with no search: its first contentful paint, from the navigation's start (firstMs and doneMs are that too). */
async function contentfulPaintOnce(page: Page, url: string): Promise<Sample> {
  await page.goto(url, { waitUntil: 'commit' });
  return page.evaluate(() => new Promise<Sample>((resolvePromise) => {
    new PerformanceObserver((list) => {
      const fcp = list.getEntries().find((p) => p.name === 'first-contentful-paint');
      const entries = performance.getEntriesByType.bind(performance) as (type: string) => { responseStart?: number }[];
      const ttfbMs = entries('navigation')[0]?.responseStart ?? 0;
      if (fcp !== undefined) resolvePromise({ firstMs: fcp.startTime, doneMs: fcp.startTime, ttfbMs, fcpMs: fcp.startTime });
    // Paint timing is the browser's, not in Node's types of PerformanceObserver.
    }).observe({ type: 'paint' as 'mark', buffered: true });
  }));
}

/** The browser's floor: a minimal static page (a heading and a line of text), served from this process. */
async function startFloorServer(): Promise<{ readonly server: Server; readonly url: string }> {
  const body = '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Floor</title></head><body><h1>Floor</h1><p>A minimal static page.</p></body></html>\n';
  const server = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(body));
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

async function series(run: () => Promise<Sample>): Promise<Sample[]> {
  return (await interleaved([run]))[0]!;
}

/**
 * Each run warmed up, then sampled in turns, the order rotated each turn so that every run comes
 * first, second and so on equally often: the machine's drift, and whatever one page load leaves
 * running for the next, fall on all alike.
 */
async function interleaved(runs: readonly (() => Promise<Sample>)[]): Promise<Sample[][]> {
  for (const run of runs) for (let i = 0; i < WARMUP; i++) await run();
  const samples = runs.map((): Sample[] => []);
  for (let i = 0; i < SAMPLES; i++) {
    for (let k = 0; k < runs.length; k++) {
      const index = (k + i) % runs.length;
      samples[index]!.push(await runs[index]!());
    }
  }
  return samples;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface PageFigures {
  readonly ttfbP50Ms: number;
  readonly fcpP50Ms: number;
  readonly firstP50Ms: number | null;
  readonly doneP50Ms: number;
  readonly samples: readonly Sample[];
}

interface QueryFigures {
  readonly id: string;
  readonly query: string;
  readonly streamFirstP50Ms: number | null;
  readonly streamDoneP50Ms: number;
  readonly stream: readonly Sample[];
  /** This build's page, then (A/B) the other build's. */
  readonly pages: readonly PageFigures[];
}

const firsts = (samples: readonly Sample[]): number | null => median(samples.flatMap((s) => (s.firstMs === null ? [] : [s.firstMs])));

function pageFigures(samples: readonly Sample[]): PageFigures {
  return {
    samples, ttfbP50Ms: median(samples.map((s) => s.ttfbMs ?? 0))!, fcpP50Ms: median(samples.map((s) => s.fcpMs ?? 0))!,
    firstP50Ms: firsts(samples), doneP50Ms: median(samples.map((s) => s.doneMs))!,
  };
}

const ms = (value: number | null): string => (value === null ? '—' : value.toFixed(1));
const ratio = (a: number | null, b: number | null): string => (a === null || b === null || b === 0 ? '—' : `${(a / b).toFixed(1)}×`);
/** A/B ratios want two decimals: the differences sought are tens of per cent. */
const abRatio = (a: number | null, b: number | null): string => (a === null || b === null || b === 0 ? '—' : `${(a / b).toFixed(2)}×`);

interface LoadAverages {
  /** 1, 5 and 15 minute load averages (os.loadavg) as the measurements started and ended. */
  readonly before: readonly number[];
  readonly after: readonly number[];
}

const loads = (values: readonly number[]): string => values.map((v) => v.toFixed(2)).join(' / ');

interface Floors {
  /** The minimal static page, then Quarry's search start page per build. */
  readonly staticPage: PageFigures;
  readonly startPages: readonly PageFigures[];
}

function floorLine(floors: Floors, labels: readonly string[]): string {
  return `Floor (first contentful paint, median ms): a minimal static page ${ms(floors.staticPage.fcpP50Ms)}; ` +
    `Quarry's search start page (/search, no query) ${floors.startPages.map((p, i) => `${ms(p.fcpP50Ms)} (${labels[i]})`).join(', ')}.`;
}

function intro(corpus: Corpus, load: LoadAverages): string {
  return `Each query ${SAMPLES} times after ${WARMUP} warm-up runs, one at a time. Page: a fresh navigation to /search?q=… in headless Chromium ` +
    '(playwright-core, Debian\'s chromium), which runs its search with the page (first results in the HTML, the rest read by its script), ' +
    'times from the navigation\'s start to the Element Timing paint of the first result and of the final status. ' +
    `Stream: GET /.api/search/stream with the page's parameters (${new URLSearchParams(PAGE_PARAMS)}) on a keep-alive connection, times from sending to the first \`matches\` event and to \`done\`. Medians in ms. ` +
    `Page TTFB: the navigation's responseStart (the page's head and shell arrive); page FCP: its first contentful paint, with or without results. Load average (1/5/15 min): ${loads(load.before)} before, ${loads(load.after)} after. Corpus: ${corpus.name}.`;
}

function table(corpus: Corpus, rows: readonly QueryFigures[], floors: Floors, load: LoadAverages): string {
  return [
    `# Search page in Chromium vs the stream API, ${corpus.name}`, '', intro(corpus, load), '', floorLine(floors, ['Quarry']), '',
    '| query | stream first match | page TTFB | page FCP | page first result painted | ratio | stream done | page done painted | ratio | first paint ≤ 100 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map((r) => {
      const p = r.pages[0]!;
      return `| ${r.id} | ${ms(r.streamFirstP50Ms)} | ${ms(p.ttfbP50Ms)} | ${ms(p.fcpP50Ms)} | ${ms(p.firstP50Ms)} | ${ratio(p.firstP50Ms, r.streamFirstP50Ms)} | ${ms(r.streamDoneP50Ms)} | ${ms(p.doneP50Ms)} | ${ratio(p.doneP50Ms, r.streamDoneP50Ms)} | ` +
        `${p.firstP50Ms === null ? 'no results' : p.firstP50Ms <= FIRST_PAINT_GOAL_MS ? 'pass' : 'FAIL'} |`;
    }),
    '',
  ].join('\n');
}

function abTable(corpus: Corpus, labels: readonly string[], rows: readonly QueryFigures[], floors: Floors, load: LoadAverages): string {
  const [a, b] = labels;
  return [
    `# Search page A/B in Chromium: ${a} vs ${b}, ${corpus.name}`, '',
    `${intro(corpus, load)} Page loads alternate between the two builds (${a} serves from this checkout, ${b} from QUARRY_BENCH_WEB_OTHER), each over its own copy of one index; ratios are ${a} / ${b}.`, '',
    floorLine(floors, labels), '',
    `| query | stream first match | FCP ${a} | FCP ${b} | ratio | first result ${a} | first result ${b} | ratio | done ${a} | done ${b} | ratio |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => {
      const [x, y] = r.pages as [PageFigures, PageFigures];
      return `| ${r.id} | ${ms(r.streamFirstP50Ms)} | ${ms(x.fcpP50Ms)} | ${ms(y.fcpP50Ms)} | ${abRatio(x.fcpP50Ms, y.fcpP50Ms)} | ${ms(x.firstP50Ms)} | ${ms(y.firstP50Ms)} | ${abRatio(x.firstP50Ms, y.firstP50Ms)} | ` +
        `${ms(x.doneP50Ms)} | ${ms(y.doneP50Ms)} | ${abRatio(x.doneP50Ms, y.doneP50Ms)} |`;
    }),
    '',
  ].join('\n');
}

/** One build's server on its own copy of the index, and a browser context holding its admin token. */
interface Served {
  readonly label: string;
  readonly server: ServerProcess;
  readonly token: string;
  readonly page: Page;
}

async function serve(browser: Browser, label: string, dataDir: string, bin?: string): Promise<Served> {
  await liftRateLimit(dataDir);
  const server = await startServerProcess(dataDir, [], process.env, bin);
  const token = server.adminToken;
  if (token === null) throw new Error(`${dataDir} already had a server started on it`);
  const context = await browser.newContext({ extraHTTPHeaders: { Authorization: `token ${token}` }, viewport: { width: 1280, height: 900 } });
  return { label, server, token, page: await context.newPage() };
}

/**
 * The same final list on every build: the comparison is between equal answers. A search whose own
 * count varies from load to load (one stopped by its time limit on a loaded machine) cannot be
 * held to that; it is named, and its row says so. Returns the note for the row.
 */
function checkSameResults(id: string, builds: readonly Served[], samples: readonly (readonly Sample[])[]): string {
  const counts = samples.map((s) => [...new Set(s.map((x) => x.results))]);
  const listed = builds.map((b, i) => `${b.label} ${counts[i]!.join('/')}`).join(', ');
  if (counts.some((c) => c.length !== 1)) {
    console.error(`web-search bench: ${id}: the result count varies from load to load (${listed}), so it is not compared`);
    return ' (counts vary)';
  }
  if (counts.some((c) => c[0] !== counts[0]![0])) throw new Error(`${id}: the builds' pages listed different numbers of results: ${listed}`);
  return '';
}

async function main(): Promise<void> {
  const quick = process.env['QUARRY_BENCH_QUICK'] === '1';
  const other = process.env['QUARRY_BENCH_WEB_OTHER']?.trim() || null;
  const corpus = chooseCorpus(quick);
  const dataDirs = (other === null ? ['this'] : ['this', 'other']).map((name) => mkdtempSync(join(tmpdir(), `quarry-web-bench-${name}-`)));
  const floor = await startFloorServer();
  const browser = await launchBrowser();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const builds: Served[] = [];
  try {
    const prebuilt = process.env['QUARRY_BENCH_WEB_INDEX'];
    if (prebuilt) {
      console.error(`web-search bench: copying the index in ${prebuilt}`);
      cpSync(prebuilt, dataDirs[0]!, { recursive: true });
    } else {
      console.error(`web-search bench: indexing ${corpus.repoName}`);
      await buildQuarryIndex(corpus.repoName, corpus.gitDir, dataDirs[0]!);
    }
    if (other !== null) cpSync(dataDirs[0]!, dataDirs[1]!, { recursive: true });
    builds.push(await serve(browser, other === null ? 'Quarry' : 'this', dataDirs[0]!));
    if (other !== null) builds.push(await serve(browser, 'other', dataDirs[1]!, join(resolve(other), 'bin', 'quarry.js')));
    const floorPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const rows: QueryFigures[] = [];
    const loadBefore = loadavg();
    console.error('web-search bench: floors');
    const [staticSamples, ...startSamples] = await interleaved([
      () => contentfulPaintOnce(floorPage, floor.url),
      ...builds.map((b) => () => contentfulPaintOnce(b.page, `${b.server.url}/search`)),
    ]);
    const floors: Floors = { staticPage: pageFigures(staticSamples!), startPages: startSamples.map(pageFigures) };
    for (const q of QUERIES) {
      const query = quarryQuery(q);
      console.error(`web-search bench: ${q.id}`);
      const first = builds[0]!;
      const stream = await series(() => streamOnce(agent, `${first.server.url}/.api/search/stream?${new URLSearchParams({ q: query, ...PAGE_PARAMS })}`, first.token));
      const paged = await interleaved(builds.map((b) => () => pageOnce(b.page, `${b.server.url}/search?${new URLSearchParams({ q: query })}`)));
      const note = builds.length > 1 ? checkSameResults(q.id, builds, paged) : '';
      rows.push({ id: `${q.id}${note}`, query, stream, streamFirstP50Ms: firsts(stream), streamDoneP50Ms: median(stream.map((s) => s.doneMs))!, pages: paged.map(pageFigures) });
      console.error(`web-search bench: ${q.id}: first result painted ${rows.at(-1)!.pages.map((p, i) => `${ms(p.firstP50Ms)} (${builds[i]!.label})`).join(', ')}`);
    }
    const load = { before: loadBefore, after: loadavg() };
    if (other === null) {
      const summary = table(corpus, rows, floors, load);
      process.stdout.write(summary);
      await writeSideRun(quick ? 'web-search-quick' : 'web-search', summary, { corpus: corpus.name, samples: SAMPLES, warmup: WARMUP, loadAverage: load, floors, queries: rows });
    } else {
      process.stdout.write(abTable(corpus, builds.map((b) => b.label), rows, floors, load));
    }
  } finally {
    agent.destroy();
    await browser.close();
    for (const build of builds) await build.server.stop();
    floor.server.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
