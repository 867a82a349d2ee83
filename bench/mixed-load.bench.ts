/**
 * Issue 12's evidence: a mixed load on a real `quarry serve` over four real repositories (GraphQL
 * search, the stream API, MCP read_file/keyword_search/go_to_definition), alone, then beside a hostile
 * caller, then alone again; per-operation latency per phase, unexpected errors, server RSS, and the
 * bare uWS ceiling of the same generator. Run: `node dist/bench/mixed-load.bench.js` (loopback only).
 */
import { loadavg } from 'node:os';
import { startServerProcess, type ServerProcess } from '../test/e2e/server-process.js';
import { makeTempDir, removeDir } from '../test/git/fixtures.js';
import { measureBareBaseline } from './load/bare-baseline.js';
import { sleep } from './load/closed-loop.js';
import { startHostileCaller } from './load/hostile-caller.js';
import { HOSTILE_KINDS, UNEXPECTED_HOSTILE_OUTCOMES } from './load/hostile.js';
import { createLoadClient } from './load/http-client.js';
import { buildInstance, CALLER_LIMITS, CONNECTIONS_PER_CALLER, CORPORA, createCallers, findCorpora, type Callers } from './load/instance.js';
import { LatencyRecorder, type OperationStats } from './load/latency.js';
import { ORDINARY_TIMEOUT_MS, startOrdinaryLoad } from './load/ordinary-load.js';
import { ORDINARY_OPERATIONS } from './load/ordinary.js';
import { goals, renderSummary, type MixedLoadRun } from './load/report.js';
import { startRssSampler } from './load/rss.js';
import { memoryTable, startMemorySampler, type MemorySample } from './load/server-memory.js';
import { cpuBetween, markCpu } from './load/cpu.js';
import { countersDelta, readCounters, serverErrors, type Counters } from './load/server-counters.js';
import { writeSideRun } from './record.js';

const SECONDS = Number(process.env['QUARRY_BENCH_LOAD_SECONDS'] ?? 600);
const CONNECTIONS = Number(process.env['QUARRY_BENCH_LOAD_CONNECTIONS'] ?? 64);
const HOSTILE_CONNECTIONS = 8;
const WARMUP_SECONDS = 15;
const BARE_SECONDS = 15;
const RSS_EVERY_MS = 2000;
const MEMORY_EVERY_MS = 10_000;
const HOSTILE_TIMEOUT_MS = 120_000;
const HOSTILE_PAUSE_AFTER_429_MS = 50;
/** Characters of the server's stderr kept, shown when it did not stay up or exit cleanly. */
const SERVER_LOG_TAIL = 4096;
/**
 * QUARRY_BENCH_LOAD_HOSTILE: a regular expression choosing hostile kinds by name (all by default),
 * to see what each costs the others; `none` runs the second phase without the hostile caller, a
 * control for how far the two phases differ on a busy machine anyway.
 */
const HOSTILE_FILTER = process.env['QUARRY_BENCH_LOAD_HOSTILE'] ?? '';
/**
 * QUARRY_BENCH_LOAD_BIN: another checkout's bin/quarry.js to serve (an A/B of two builds; indexing
 * stays this checkout's); QUARRY_BENCH_LOAD_NODE_OPTIONS: NODE_OPTIONS for the server only (e.g.
 * `--cpu-prof --cpu-prof-dir=DIR` to profile it under the load).
 */
const SERVER_BIN = process.env['QUARRY_BENCH_LOAD_BIN'];
const SERVER_NODE_OPTIONS = process.env['QUARRY_BENCH_LOAD_NODE_OPTIONS'];
const HOSTILE_NAMES = HOSTILE_FILTER === 'none' ? [] : HOSTILE_KINDS.map((k) => k.name).filter((name) => new RegExp(HOSTILE_FILTER, 'i').test(name));

/**
 * The ordinary load alone before and after the hostile phase, half of the quiet time each: their
 * pooled samples are the baseline, so a drift over the run (a heap that grows, a machine that warms)
 * weighs on both sides of the comparison instead of on the hostile phase alone.
 */
function phaseSeconds(): MixedLoadRun['phases'] {
  const baseline = Math.max(60, Math.round(SECONDS / 4));
  const before = Math.ceil(baseline / 2);
  const hostile = SECONDS - WARMUP_SECONDS - baseline;
  if (!(hostile >= 30)) throw new Error(`QUARRY_BENCH_LOAD_SECONDS=${SECONDS} leaves under 30 s for the hostile phase: use at least ${WARMUP_SECONDS + baseline + 30}`);
  return { warmup: WARMUP_SECONDS, baseline, before, hostile, after: baseline - before };
}

/** Each ordinary operation once, checked; the first answer of each stable one is the reference. */
async function preflight(origin: string, token: string): Promise<Map<string, Buffer>> {
  const client = createLoadClient(origin, 1);
  const references = new Map<string, Buffer>();
  try {
    for (const operation of ORDINARY_OPERATIONS) {
      const answer = await client.send(operation.request(token), ORDINARY_TIMEOUT_MS);
      const problem = operation.verify(answer);
      if (problem !== null) throw new Error(`${operation.name} answers wrongly before any load (${problem}): ${answer.body.toString('utf8').slice(0, 500)}`);
      if (operation.stable) references.set(operation.name, answer.body);
    }
    return references;
  } finally {
    client.close();
  }
}

/** In the order of `names`, so every table lists operations alike. */
const ordered = (stats: readonly OperationStats[], names: readonly string[]): OperationStats[] =>
  [...stats].sort((a, b) => names.indexOf(a.operation) - names.indexOf(b.operation));
const ORDINARY_NAMES = ORDINARY_OPERATIONS.map((o) => o.name);

const sum = (stats: readonly OperationStats[], pick: (s: OperationStats) => number): number => stats.reduce((n, s) => n + pick(s), 0);

type LoadFigures = Omit<MixedLoadRun, 'header' | 'bare' | 'server'> & { readonly memory: readonly MemorySample[] };

async function runLoad(server: ServerProcess, tokens: Callers, pid: number): Promise<LoadFigures> {
  const phases = phaseSeconds();
  const references = await preflight(server.url, tokens.ordinary[0]!);
  const recorder = new LatencyRecorder();
  let phase = 'warm-up';
  const rss = startRssSampler(pid, RSS_EVERY_MS);
  const memory = startMemorySampler(server.url, tokens.admin, MEMORY_EVERY_MS);
  const ordinary = startOrdinaryLoad({
    origin: server.url, tokens: tokens.ordinary, connectionsPerCaller: CONNECTIONS_PER_CALLER, operations: ORDINARY_OPERATIONS, references, recorder, phase: () => phase,
  });
  const counters = (): Promise<Counters> => readCounters(server.url, tokens.admin);
  await sleep(phases.warmup * 1000);
  phase = 'before';
  const cpuAtBaseline = markCpu(pid);
  const warmupEnd = rss.now();
  const atBaseline = await counters();
  process.stderr.write(`baseline, first half: ${phases.before} s of ordinary load alone\n`);
  await sleep(phases.before * 1000);
  phase = 'hostile';
  const cpuAtHostile = markCpu(pid);
  const baselineEnd = rss.now();
  const atHostile = await counters();
  process.stderr.write(`hostile: ${phases.hostile} s ${HOSTILE_NAMES.length === 0 ? 'without the hostile caller (control run)' : 'with the hostile caller'}\n`);
  const hostile = HOSTILE_NAMES.length === 0 ? null : startHostileCaller({
    origin: server.url, token: tokens.hostile, connections: HOSTILE_CONNECTIONS, timeoutMs: HOSTILE_TIMEOUT_MS, pauseAfter429Ms: HOSTILE_PAUSE_AFTER_429_MS, kinds: HOSTILE_NAMES,
  });
  await sleep(phases.hostile * 1000);
  // Requests started while the hostile caller hangs up are neither phase's.
  phase = 'settle';
  const cpuAtHostileEnd = markCpu(pid);
  const hostileEnd = rss.now();
  const hostileFigures = hostile === null ? { seconds: phases.hostile, stats: [], examples: [] } : await hostile.stop();
  const atAfter = await counters();
  phase = 'after';
  process.stderr.write(`baseline, second half: ${phases.after} s of ordinary load alone\n`);
  await sleep(phases.after * 1000);
  phase = 'drain';
  await ordinary.stop();
  const end = rss.now();
  rss.stop();
  memory.stop();
  const atEnd = await counters();
  const summary = (names: string | readonly string[], seconds: number): OperationStats[] => ordered(recorder.summary(names, seconds), ORDINARY_NAMES);
  const counted = [...summary(['before', 'hostile', 'after'], 1), ...recorder.summary(['warm-up', 'settle', 'drain'], 1)];
  const serverCounters = { before: countersDelta(atBaseline, atHostile), hostile: countersDelta(atHostile, atAfter), after: countersDelta(atAfter, atEnd) };
  return {
    phases,
    baseline: summary(['before', 'after'], phases.baseline),
    before: summary('before', phases.before),
    after: summary('after', phases.after),
    hostileOrdinary: summary('hostile', phases.hostile),
    hostile: ordered(hostileFigures.stats, HOSTILE_NAMES), control: hostile === null,
    ordinaryUnexpected: sum(counted, (s) => s.count - (s.outcomes['ok'] ?? 0)),
    ordinaryThrottled: sum(counted, (s) => s.outcomes['status 429'] ?? 0),
    unexpectedHostile: sum(hostileFigures.stats, (s) => Object.entries(s.outcomes).filter(([k]) => UNEXPECTED_HOSTILE_OUTCOMES.has(k)).reduce((n, [, v]) => n + v, 0)),
    hostileThrottled: sum(hostileFigures.stats, (s) => s.outcomes['throttled (429)'] ?? 0),
    serverErrors: Object.values(serverCounters).reduce((n, delta) => n + serverErrors(delta), 0),
    serverCounters,
    cpu: { baseline: cpuBetween(cpuAtBaseline, cpuAtHostile), hostile: cpuBetween(cpuAtHostile, cpuAtHostileEnd) },
    rss: { warmupEnd, baselineEnd, hostileEnd, end, samples: rss.samples },
    examples: [...ordinary.examples, ...hostileFigures.examples],
    memory: memory.samples,
  };
}

async function main(): Promise<void> {
  const corpora = findCorpora();
  if (corpora === null) {
    const where = process.env['QUARRY_BENCH_CORPORA'] ? `in QUARRY_BENCH_CORPORA=${process.env['QUARRY_BENCH_CORPORA']}` : 'in a shared/corpora folder beside this checkout or any of its parents';
    process.stderr.write(`mixed-load: the corpora (${CORPORA.map((c) => c.bundle).join(', ')}) were not found ${where}. They live beside the project, not in it (../shared/corpora); set QUARRY_BENCH_CORPORA=DIR to point at them. Nothing was run.\n`);
    process.exit(2);
  }
  const ordinaryConnections = CONNECTIONS - HOSTILE_CONNECTIONS;
  if (!(ordinaryConnections > 0 && ordinaryConnections % CONNECTIONS_PER_CALLER === 0)) {
    throw new Error(`QUARRY_BENCH_LOAD_CONNECTIONS=${CONNECTIONS}: needs ${HOSTILE_CONNECTIONS} hostile connections plus a multiple of ${CONNECTIONS_PER_CALLER}`);
  }
  phaseSeconds();
  if (HOSTILE_FILTER !== 'none' && HOSTILE_NAMES.length === 0) throw new Error(`QUARRY_BENCH_LOAD_HOSTILE=${HOSTILE_FILTER} names no hostile kind; they are: ${HOSTILE_KINDS.map((k) => k.name).join('; ')}`);
  const loadAtStart = loadavg();
  process.stderr.write(`bare uWebSockets.js baseline: ${BARE_SECONDS} s at ${CONNECTIONS} connections\n`);
  const bare = await measureBareBaseline(CONNECTIONS, BARE_SECONDS);
  const work = makeTempDir('quarry-mixed-load');
  let server: ServerProcess | null = null;
  try {
    process.stderr.write(`indexing ${CORPORA.map((c) => c.repo).join(', ')} from ${corpora}\n`);
    const instance = await buildInstance(corpora, work);
    const callers = await createCallers(instance.dataDir, ordinaryConnections / CONNECTIONS_PER_CALLER);
    const serverEnv = SERVER_NODE_OPTIONS === undefined ? process.env : { ...process.env, NODE_OPTIONS: SERVER_NODE_OPTIONS };
    server = await startServerProcess(instance.dataDir, ['--threads', '2'], serverEnv, SERVER_BIN);
    let logTail = '';
    server.child.stderr!.on('data', (chunk: Buffer) => (logTail = `${logTail}${chunk.toString('utf8')}`.slice(-SERVER_LOG_TAIL)));
    const load = await runLoad(server, callers, server.child.pid!);
    const aliveAtEnd = server.child.exitCode === null;
    const exitCode = await server.stop();
    const header = [
      `# Mixed load: ${SECONDS} s at ${CONNECTIONS} connections on loopback, generator on the same machine`,
      '',
      `\`quarry serve --threads 2\`${SERVER_BIN === undefined ? '' : ` (${SERVER_BIN})`}${SERVER_NODE_OPTIONS === undefined ? '' : ` with NODE_OPTIONS=${SERVER_NODE_OPTIONS}`} over ${CORPORA.map((c) => c.repo).join(', ')} (mirrors of ../shared/corpora; \`quarry index --threads 2\` with symbols took ${instance.indexSeconds.toFixed(1)} s, peak RSS ${(instance.indexPeakRssKiB / 1024).toFixed(0)} MiB).`,
      `Ordinary: ${callers.ordinary.length} callers, each its own user and \`user:all\` token, ${CONNECTIONS_PER_CALLER} keep-alive connections each (${ordinaryConnections} in all); every connection cycles through the five operations and checks every answer.`,
      HOSTILE_NAMES.length === 0
        ? 'Control run (`QUARRY_BENCH_LOAD_HOSTILE=none`): the middle phase runs without the hostile caller, to show how far the phases differ on this machine anyway.'
        : `Hostile: one more caller with its own token on ${HOSTILE_CONNECTIONS} connections, cycling through ${HOSTILE_NAMES.length === HOSTILE_KINDS.length ? 'every hostile kind below' : `the kinds below only (\`QUARRY_BENCH_LOAD_HOSTILE=${HOSTILE_FILTER}\`)`} and ignoring Retry-After (it pauses ${HOSTILE_PAUSE_AFTER_429_MS} ms after a 429 only because it shares the 2 cores with the server).`,
      `Per-caller limits (site settings): ${Object.entries(CALLER_LIMITS).map(([k, v]) => `\`${k}\` ${v}`).join(', ')}.`,
      `Operations: ${ORDINARY_OPERATIONS.map((o) => `${o.name}: ${o.describe}`).join('; ')}.`,
      `Load average (1/5/15 min) at the start ${loadAtStart.map((n) => n.toFixed(2)).join(' ')}, at the end ${loadavg().map((n) => n.toFixed(2)).join(' ')}.`,
    ];
    const run: MixedLoadRun = { header, bare, ...load, server: { aliveAtEnd, exitCode, logTail } };
    const { warmup, before, hostile } = load.phases;
    const marks = [['warm-up end', warmup], ['hostile phase start', warmup + before], ['hostile phase end', warmup + before + hostile], ['end', Infinity]] as const;
    const memorySection = ['## Server memory by home (its /metrics gauges; worker figures as of each thread\'s last task)', '', ...memoryTable(load.memory, marks)];
    const summary = `${renderSummary(run)}\n\n${memorySection.join('\n')}\n`;
    process.stdout.write(summary);
    const record = HOSTILE_FILTER === '' ? 'mixed-load' : `mixed-load-hostile-${HOSTILE_FILTER.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
    await writeSideRun(record, summary, { seconds: SECONDS, connections: CONNECTIONS, limits: CALLER_LIMITS, loadAtStart, loadAtEnd: loadavg(), goals: goals(run), ...run });
  } finally {
    if (server !== null && server.child.exitCode === null) await server.stop();
    removeDir(work);
  }
}

await main();
