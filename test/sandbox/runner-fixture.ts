/**
 * The evaluator's engine on real sandbox worker threads, with limits a test may change between
 * runs, and host calls answered by a function the test gives (the services are the tool tests' part).
 */
import { chargeSignalTo } from '../../src/pool/work-owner.js';
import { createSandboxPool } from '../../src/pool/sandbox-pool.js';
import { createScriptRunner, type HostCall, type RunLimits, type ScriptOutcome, type ScriptRunner } from '../../src/sandbox/script-runner.js';
import { SANDBOX_ENTRY, SANDBOX_KINDS } from '../../src/sandbox/tasks.js';

export const TEST_LIMITS: RunLimits = {
  maxSearchesPerExecution: 100,
  maxSourceReadsPerExecution: 1000,
  maxGeneratedFileSizeBytes: 10 * 1024 * 1024,
  maxExecutionSeconds: 3,
  maxMemoryBytes: 64 * 1024 * 1024,
};

export interface RunnerFixture {
  readonly runner: ScriptRunner;
  /** The limits of the next runs. */
  limits: RunLimits;
  /** Pools the runner has built so far (one per heap cap it was asked for). */
  readonly poolsBuilt: number[];
  run(script: string, options?: { call?: HostCall; owner?: string }): Promise<ScriptOutcome>;
}

/** Answers every call with its name and arguments. */
export const echoCall: HostCall = async (name, args) => ({ name, args });

export function createRunnerFixture(limits: RunLimits = TEST_LIMITS): RunnerFixture {
  const poolsBuilt: number[] = [];
  const fixture: RunnerFixture = {
    limits,
    poolsBuilt,
    runner: createScriptRunner({
      limits: () => fixture.limits,
      createPool: (heapMiB) => {
        poolsBuilt.push(heapMiB);
        return createSandboxPool({ entry: SANDBOX_ENTRY, kinds: SANDBOX_KINDS, heapMiB, threads: 2, maxRunMs: 600_000, sliceMs: null });
      },
    }),
    run(script, options = {}) {
      const signal = new AbortController().signal;
      chargeSignalTo(signal, options.owner ?? 'test-caller');
      return fixture.runner.run({ script, signal, call: options.call ?? echoCall });
    },
  };
  return fixture;
}
