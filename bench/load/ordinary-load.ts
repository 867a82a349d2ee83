/**
 * The ordinary callers: each its own token and keep-alive agent, each connection cycling through
 * every ordinary operation; every answer is checked and recorded under the phase it started in.
 * Outcomes other than `ok` are unexpected errors.
 */
import { startClosedLoop } from './closed-loop.js';
import { createLoadClient, RequestFailed, type Answer } from './http-client.js';
import type { LatencyRecorder } from './latency.js';
import type { OrdinaryOperation } from './ordinary.js';

export const ORDINARY_TIMEOUT_MS = 30_000;
/** Unexpected answers kept verbatim (the first few) for the report. */
const KEPT_EXAMPLES = 10;

export interface OrdinaryLoadOptions {
  readonly origin: string;
  readonly tokens: readonly string[];
  readonly connectionsPerCaller: number;
  readonly operations: readonly OrdinaryOperation[];
  /** The answer each stable operation gave before the load: every later one must be the same bytes. */
  readonly references: ReadonlyMap<string, Buffer>;
  readonly recorder: LatencyRecorder;
  /** The phase a request starting now belongs to. */
  readonly phase: () => string;
}

export interface OrdinaryLoad {
  stop(): Promise<void>;
  /** The first unexpected answers, with their phase and operation. */
  readonly examples: string[];
}

function outcomeOf(operation: OrdinaryOperation, answer: Answer, reference: Buffer | undefined): { outcome: string; problem: string | null } {
  const problem = operation.verify(answer);
  if (problem !== null) return { outcome: answer.status === 200 ? 'wrong answer' : `status ${answer.status}`, problem };
  if (reference !== undefined && !reference.equals(answer.body)) return { outcome: 'wrong answer', problem: 'differs from the answer before the load' };
  return { outcome: 'ok', problem: null };
}

export function startOrdinaryLoad(options: OrdinaryLoadOptions): OrdinaryLoad {
  const { tokens, connectionsPerCaller, operations, references, recorder, phase } = options;
  const clients = tokens.map(() => createLoadClient(options.origin, connectionsPerCaller));
  const examples: string[] = [];
  const loop = startClosedLoop(tokens.length * connectionsPerCaller, async (connection, iteration) => {
    const caller = Math.floor(connection / connectionsPerCaller);
    const operation = operations[(connection + iteration) % operations.length]!;
    const at = phase();
    const started = performance.now();
    let outcome: string;
    let problem: string | null;
    try {
      const answer = await clients[caller]!.send(operation.request(tokens[caller]!), ORDINARY_TIMEOUT_MS);
      ({ outcome, problem } = outcomeOf(operation, answer, operation.stable ? references.get(operation.name) : undefined));
    } catch (error) {
      if (!(error instanceof RequestFailed)) throw error;
      outcome = error.kind;
      problem = error.message;
    }
    recorder.record(at, operation.name, performance.now() - started, outcome);
    if (problem !== null && examples.length < KEPT_EXAMPLES) examples.push(`${at}, ${operation.name}, caller ${caller + 1}: ${outcome}: ${problem}`);
  });
  return {
    examples,
    async stop() {
      await loop.stop();
      for (const client of clients) client.close();
    },
  };
}
