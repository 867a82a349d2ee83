/**
 * Selective queries through the stream API (`/.api/search/stream`) of a real `quarry serve`, one at a
 * time on one keep-alive connection, beside the same searches in-process and the round trip of a bare
 * uWebSockets.js server: what the HTTP path adds to a search. Match counts are checked equal first.
 */
import { Agent, request } from 'node:http';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { startServerProcess } from '../test/e2e/server-process.js';
import { startBareServer } from './load/bare-baseline.js';
import type { BenchQuery } from './queries.js';
import { liftRateLimit, QUARRY_THREADS, quarryQuery } from './tools/quarry.js';

/**
 * The benchmark's selective queries, those the engine answers in-process within the goal (a good
 * literal, under a thousand matching lines): what an agent or a person mostly sends.
 */
export const SELECTIVE_QUERY_IDS: readonly string[] = ['rare-literal', 'absent-literal', 'regex-inner'];
const WARMUP = 5;
/**
 * Rounds of every query, through the same door, before any is timed: what a running server has
 * behind it. A fresh process spends its first thousand or so searches compiling (V8's optimising
 * compiler on its helper threads took 1.2-1.7 ms of CPU per search in searches 200-1,200 of one
 * process, 0.2 ms after 3,000), which on 2 cores is taken from the search itself.
 */
const WARMUP_ROUNDS = Number(process.env['QUARRY_BENCH_STREAM_WARMUP_ROUNDS'] ?? 500);
const SAMPLES = Number(process.env['QUARRY_BENCH_STREAM_SAMPLES'] ?? 60);
/** The goal of issue 12: a selective query costs the server at most this through the stream API. */
export const STREAM_GOAL_MS = 5;

export interface StreamQueryFigures {
  readonly id: string;
  readonly query: string;
  readonly matchCount: number;
  /** Request sent to the last byte of the response, on the client. */
  readonly streamP50Ms: number;
  readonly streamP90Ms: number;
  /** streamP50Ms less the bare server's round trip: the server's own time. */
  readonly serverP50Ms: number;
  readonly inProcessP50Ms: number;
  readonly inProcessP90Ms: number;
}

export interface StreamApiRun {
  readonly bareRoundTripP50Ms: number;
  readonly warmupRounds: number;
  readonly samples: number;
  readonly queries: readonly StreamQueryFigures[];
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly ms: number;
}

function get(agent: Agent, url: string, headers: Readonly<Record<string, string>>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The matchCount of the stream's final `progress` event (done: true). */
function streamedMatchCount(body: string): number {
  const events = body.split('\n\n').filter((e) => e.startsWith('event: progress\n'));
  const last = events.at(-1);
  const progress = last === undefined ? undefined : (JSON.parse(last.slice(last.indexOf('data: ') + 6)) as { done?: boolean; matchCount?: number });
  if (progress?.done !== true || typeof progress.matchCount !== 'number') throw new Error(`the stream ended without a final progress event: ${body.slice(-500)}`);
  if (body.includes('event: error\n') || body.includes('event: alert\n')) throw new Error(`the stream reported a problem: ${body.slice(0, 500)}`);
  return progress.matchCount;
}

async function warmUp(queries: readonly BenchQuery[], run: (q: BenchQuery) => Promise<unknown>): Promise<void> {
  for (let round = 0; round < WARMUP_ROUNDS; round++) for (const q of queries) await run(q);
}

async function timedSeries(run: () => Promise<number>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) samples.push(await run());
  return samples;
}

async function bareRoundTrip(): Promise<number> {
  const bare = await startBareServer();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    return percentile(await timedSeries(async () => (await get(agent, bare.url, {})).ms), 0.5);
  } finally {
    agent.destroy();
    await bare.stop();
  }
}

/** Stream timings and match counts per query, from a server started on `dataDir` (a fresh data directory, so its first start prints the admin token). */
async function throughStream(dataDir: string, queries: readonly BenchQuery[]): Promise<Map<string, { matchCount: number; samples: number[] }>> {
  await liftRateLimit(dataDir);
  const server = await startServerProcess(dataDir);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    if (server.adminToken === null) throw new Error(`${dataDir} already had a server started on it: the stream benchmark needs a fresh data directory`);
    const headers = { Authorization: `token ${server.adminToken}`, Accept: 'text/event-stream' };
    const urlOf = (q: BenchQuery): string => `${server.url}/.api/search/stream?${new URLSearchParams({ q: quarryQuery(q), v: 'V3' })}`;
    await warmUp(queries, (q) => get(agent, urlOf(q), headers));
    const figures = new Map<string, { matchCount: number; samples: number[] }>();
    for (const q of queries) {
      const url = urlOf(q);
      let matchCount = -1;
      const samples = await timedSeries(async () => {
        const answer = await get(agent, url, headers);
        if (answer.status !== 200) throw new Error(`the stream answered ${answer.status} for ${q.id}: ${answer.body.slice(0, 300)}`);
        const count = streamedMatchCount(answer.body);
        if (matchCount !== -1 && count !== matchCount) throw new Error(`the stream found ${count} then ${matchCount} matches for ${q.id}`);
        matchCount = count;
        return answer.ms;
      });
      figures.set(q.id, { matchCount, samples });
    }
    return figures;
  } finally {
    agent.destroy();
    await server.stop();
  }
}

async function inProcess(dataDir: string, queries: readonly BenchQuery[]): Promise<Map<string, { matchCount: number; samples: number[] }>> {
  const engine = createServices(loadConfig({ dataDir, threads: QUARRY_THREADS }));
  try {
    await warmUp(queries, (q) => engine.search.search({ query: quarryQuery(q) }));
    const figures = new Map<string, { matchCount: number; samples: number[] }>();
    for (const q of queries) {
      let matchCount = -1;
      const samples = await timedSeries(async () => {
        const started = performance.now();
        const response = await engine.search.search({ query: quarryQuery(q) });
        const ms = performance.now() - started;
        matchCount = response.matchCount;
        return ms;
      });
      figures.set(q.id, { matchCount, samples });
    }
    return figures;
  } finally {
    await engine.close();
  }
}

/** The server first, then the engine in this process, then the bare server: never two at once on the 2 cores. */
export async function measureStreamApi(dataDir: string, queries: readonly BenchQuery[]): Promise<StreamApiRun> {
  const streamed = await throughStream(dataDir, queries);
  const local = await inProcess(dataDir, queries);
  const bareRoundTripP50Ms = await bareRoundTrip();
  return {
    bareRoundTripP50Ms,
    warmupRounds: WARMUP_ROUNDS,
    samples: SAMPLES,
    queries: queries.map((q) => {
      const s = streamed.get(q.id)!;
      const l = local.get(q.id)!;
      if (s.matchCount !== l.matchCount) throw new Error(`${q.id}: the stream API found ${s.matchCount} matches, the engine in-process ${l.matchCount}`);
      const streamP50Ms = percentile(s.samples, 0.5);
      return {
        id: q.id, query: quarryQuery(q), matchCount: s.matchCount, streamP50Ms, streamP90Ms: percentile(s.samples, 0.9),
        serverP50Ms: streamP50Ms - bareRoundTripP50Ms, inProcessP50Ms: percentile(l.samples, 0.5), inProcessP90Ms: percentile(l.samples, 0.9),
      };
    }),
  };
}

export function streamApiTable(run: StreamApiRun): string[] {
  return [
    `Stream API: ${run.warmupRounds} warm-up rounds of every query on each side (a running server's state, past its start-up compilation), then each query ${WARMUP} more times and ${run.samples} timed, one keep-alive connection, one request at a time; ` +
      `server time = stream p50 − the bare uWebSockets.js round trip (${run.bareRoundTripP50Ms.toFixed(3)} ms p50). Match counts equal in-process.`,
    '',
    '| query | matches | stream p50 (ms) | stream p90 (ms) | server p50 (ms) | in-process p50 (ms) | in-process p90 (ms) | goal |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...run.queries.map((q) =>
      `| ${q.id} | ${q.matchCount} | ${q.streamP50Ms.toFixed(2)} | ${q.streamP90Ms.toFixed(2)} | ${q.serverP50Ms.toFixed(2)} | ${q.inProcessP50Ms.toFixed(2)} | ${q.inProcessP90Ms.toFixed(2)} | ` +
      `server ≤ ${STREAM_GOAL_MS} ms: ${q.serverP50Ms <= STREAM_GOAL_MS ? 'pass' : 'FAIL'} |`),
  ];
}
