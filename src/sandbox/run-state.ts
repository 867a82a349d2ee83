/**
 * Worker side: one run's state shared by the hook, the modules and the memory guard: the limit that
 * stopped it (once set, every catch point raises it again), the deadline, and the generated files'
 * running size. Plain bookkeeping; it runs no Lua.
 */
import type { LimitName, RunLimits, StopReason } from './protocol.js';
import type { RunChannel } from './run-channel.js';

/** The script is stopped this long before the worker would be terminated, so it can report what it did. */
const SOFT_DEADLINE_MARGIN_MS = 250;

export class RunState {
  stop: StopReason | null = null;
  /** Bytes of generated files by name (a name written again replaces its file). */
  readonly files = new Map<string, number>();
  readonly softDeadline: number;

  constructor(readonly channel: RunChannel, readonly limits: RunLimits, deadline: number) {
    this.softDeadline = deadline - Math.min(SOFT_DEADLINE_MARGIN_MS, (deadline - Date.now()) / 4);
  }

  /** Stops the run (the first limit reached is the one reported); returns the message to raise. */
  stopWith(limit: LimitName, message: string): string {
    this.stop ??= { limit, message };
    return this.stop.message;
  }

  stopMessage(): string | null {
    return this.stop?.message ?? null;
  }

  /** The stop message once the soft deadline has passed (or a stop is already set), else null. */
  checkDeadline(): string | null {
    if (this.stop === null && Date.now() >= this.softDeadline) {
      this.stopWith('maxExecutionSeconds', `the script ran out of time: a run may take ${this.limits.maxExecutionSeconds} s (deepSearch.evaluator.maxExecutionSeconds)`);
    }
    return this.stopMessage();
  }

  memoryExceeded(): void {
    this.stopWith('maxMemoryBytes', `the script ran out of memory: its strings may take ${this.limits.maxMemoryBytes} bytes (deepSearch.evaluator.maxMemoryBytes)`);
  }

  /** The heap (tables and other values) is past its share of the worker's cap: see memory-guard.ts. */
  heapExceeded(): void {
    this.stopWith('maxMemoryBytes', `the script ran out of memory: its tables and other values filled much of the ${this.limits.maxMemoryBytes}-byte heap a run may use (deepSearch.evaluator.maxMemoryBytes)`);
  }

  generatedBytes(): number {
    let total = 0;
    for (const bytes of this.files.values()) total += bytes;
    return total;
  }
}
