/**
 * The hostile caller, in a worker thread so its loops never share an event loop with the ordinary
 * callers' timing: cycles through its hostile kinds on each connection, ignoring Retry-After, until
 * told to stop; then posts what it saw. Requests cut off by the stop are not counted.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { sleep, startClosedLoop } from './closed-loop.js';
import { classifyHostile, HOSTILE_KINDS, UNEXPECTED_HOSTILE_OUTCOMES } from './hostile.js';
import { createLoadClient, RequestFailed } from './http-client.js';
import { LatencyRecorder } from './latency.js';

export interface HostileWorkerData {
  readonly origin: string;
  readonly token: string;
  readonly connections: number;
  readonly timeoutMs: number;
  /**
   * A hostile client elsewhere would retry a 429 at once; this one shares the 2 cores with the
   * server, so it pauses this long first, to keep its own CPU out of the others' figures.
   */
  readonly pauseAfter429Ms: number;
  /** Names of the kinds to send (all by default); a subset shows which kind costs the others what. */
  readonly kinds: readonly string[];
}

const HOSTILE_PHASE = 'hostile';
const KEPT_EXAMPLES = 10;

const { origin, token, connections, timeoutMs, pauseAfter429Ms, kinds: names } = workerData as HostileWorkerData;
const kinds = HOSTILE_KINDS.filter((k) => names.includes(k.name));
const built = new Map(kinds.filter((k) => !k.varies).map((k) => [k.name, k.request(token, 0)]));
const examples: string[] = [];
const client = createLoadClient(origin, connections);
const recorder = new LatencyRecorder();
const started = performance.now();
let stopping = false;
let serial = 0;

const loop = startClosedLoop(connections, async (connection, iteration) => {
  const kind = kinds[(connection + iteration) % kinds.length]!;
  const begun = performance.now();
  let outcome: string;
  let detail = '';
  try {
    const answer = await client.send(built.get(kind.name) ?? kind.request(token, serial++), timeoutMs);
    outcome = classifyHostile(kind.door, answer);
    detail = answer.body.toString('utf8', 0, 300);
  } catch (error) {
    if (!(error instanceof RequestFailed)) throw error;
    outcome = error.kind;
    detail = error.message;
  }
  if (stopping) return;
  recorder.record(HOSTILE_PHASE, kind.name, performance.now() - begun, outcome);
  if (UNEXPECTED_HOSTILE_OUTCOMES.has(outcome) && examples.length < KEPT_EXAMPLES) examples.push(`hostile, ${kind.name}: ${outcome}: ${detail}`);
  if (outcome === 'throttled (429)') await sleep(pauseAfter429Ms);
});

parentPort!.once('message', async () => {
  stopping = true;
  const seconds = (performance.now() - started) / 1000;
  client.close();
  await loop.stop();
  parentPort!.postMessage({ seconds, stats: recorder.summary(HOSTILE_PHASE, seconds), examples });
});
