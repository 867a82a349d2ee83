/**
 * Worker side: a budget for the bytes of Lua strings. fengari keeps each string in a Uint8Array,
 * whose bytes live outside V8's heap, so the worker's heap cap never sees them: `s = s .. s` thirty
 * times would take gigabytes. The thread's Uint8Array constructor is replaced by one that counts
 * what it allocates; per megabyte it measures the thread's array-buffer memory (collecting garbage
 * first when over, so dead strings do not count) and refuses what would go past the run's budget.
 * The same beat checks the run's deadline, which a few costly string instructions can outrun
 * between instruction-count hooks. Tables and other values live in V8's heap, whose cap terminates
 * the worker; but near that cap V8 collects again and again before it gives up, which on a busy
 * machine outlasts the deadline. So the hook also measures the heap (heapOverBudget) and the run is
 * stopped well below the cap. Install before fengari loads; outside a run nothing is refused.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Allocations are counted cheaply; the thread's real total is measured per this much. */
const MEASURE_EVERY_BYTES = 1024 * 1024;
/**
 * The share of the old generation left under its cap (the pool caps it at the budget's bytes) when a
 * run starts that the run may fill: far enough below the cap that V8 is not yet collecting in a loop.
 */
const HEAP_SHARE = 0.6;
/** Heap measurements are skipped on all but one in this many calls (one costs about 2 µs). */
const HEAP_EVERY_CALLS = 4;
/** After a collection that left the run under its heap budget, the next waits for this share of the budget's bytes of growth. */
const COLLECT_STEP_SHARE = 1 / 16;

class BudgetError extends RangeError {
  override readonly name = 'BudgetError';
}

export interface RunBudget {
  readonly bytes: number;
  /** Called once the budget would be exceeded, before the allocation is refused. */
  readonly exceeded: () => void;
  /** Called per megabyte allocated: a message when the run must stop (its deadline passed), else null. */
  readonly beat: () => string | null;
}

interface Active extends RunBudget {
  /** Array-buffer memory of the thread when the run began: the runtime's own, not the script's. */
  readonly baseline: number;
  /** Used heap bytes past which the run is stopped. */
  readonly heapBytes: number;
}

let active: Active | null = null;
let sinceMeasured = 0;
let heapCalls = 0;
/** Used heap bytes past which a check collects garbage and measures again. */
let collectAbove = 0;
let collect: (() => void) | null = null;

function arrayBufferBytes(): number {
  return process.memoryUsage().arrayBuffers;
}

/** Whether `extra` more bytes fit, after a full collection if they do not fit at first. */
function fits(budget: Active, extra: number): boolean {
  if (arrayBufferBytes() - budget.baseline + extra <= budget.bytes) return true;
  collect?.();
  return arrayBufferBytes() - budget.baseline + extra <= budget.bytes;
}

function refuse(budget: Active): never {
  budget.exceeded();
  throw new BudgetError(`not enough memory: the script's strings would take more than ${budget.bytes} bytes`);
}

/** Counts an allocation already made; measures, and beats, once enough has been made. */
function charge(bytes: number): void {
  if (active === null) return;
  sinceMeasured += bytes;
  if (sinceMeasured < MEASURE_EVERY_BYTES) return;
  sinceMeasured = 0;
  const stopped = active.beat();
  if (stopped !== null) throw new BudgetError(stopped);
  if (!fits(active, 0)) refuse(active);
}

/**
 * Whether the run's heap is past its share of the cap even after a full collection (so garbage
 * does not count). Measured on one call in HEAP_EVERY_CALLS; the instruction-count hook calls it.
 */
export function heapOverBudget(): boolean {
  if (active === null || ++heapCalls < HEAP_EVERY_CALLS) return false;
  heapCalls = 0;
  if (getHeapStatistics().used_heap_size <= collectAbove) return false;
  collect?.();
  const used = getHeapStatistics().used_heap_size;
  // A heap that is mostly garbage is collected again only after it grows by another step, not at every check.
  collectAbove = Math.max(active.heapBytes, used + active.bytes * COLLECT_STEP_SHARE);
  return used > active.heapBytes;
}

/**
 * Replaces globalThis.Uint8Array for this thread by a subclass that counts what it allocates, and
 * that every Uint8Array (a Buffer, one made before) is still an instance of. A subclass rather than
 * a Proxy: fengari checks `instanceof Uint8Array` at every string it makes, and through a Proxy
 * that check cost more than making the string.
 */
export function installMemoryGuard(): void {
  if (collect !== null) return;
  // The one way to a full, synchronous collection from inside a worker (V8 options cannot be passed
  // to one). V8's flags are the process's: contexts made later on any thread also get a `gc`
  // global, which only lets their own code ask for a collection.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'major'; execution: 'sync' }) => void;
  collect = () => gc({ type: 'major', execution: 'sync' });
  const original = Uint8Array;
  class GuardedUint8Array extends original {
    constructor(...args: unknown[]) {
      const size = args[0];
      // A large request is measured before it is made: it may be the one that would not fit.
      if (active !== null && typeof size === 'number' && size >= MEASURE_EVERY_BYTES && !fits(active, size)) refuse(active);
      super(...(args as [ArrayBuffer, number, number]));
      charge(this.byteLength);
    }

    static override [Symbol.hasInstance](value: unknown): boolean {
      return value instanceof original;
    }
  }
  globalThis.Uint8Array = GuardedUint8Array as Uint8ArrayConstructor;
}

/** From now until clearRunBudget(): allocations are counted against `budget`. */
export function setRunBudget(budget: RunBudget): void {
  sinceMeasured = 0;
  heapCalls = 0;
  // Measured from where the run starts: the heap a stopped run filled sometimes still counts as used during the next runs on
  // the thread, through full collections (nothing found holding it; at times it drops later with no script running, as if
  // sweeping lagged), and those runs must not be stopped for it.
  const used = getHeapStatistics().used_heap_size;
  active = { ...budget, baseline: arrayBufferBytes(), heapBytes: used + Math.max(0, budget.bytes - used) * HEAP_SHARE };
  collectAbove = active.heapBytes;
}

export function clearRunBudget(): void {
  active = null;
}
