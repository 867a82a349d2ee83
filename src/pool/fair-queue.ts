/**
 * Fair sharing of a few slots (worker threads, compile-guard processes) among owners (callers):
 * start-time fair queuing on measured busy time. Each owner's tag grows by the slot time its tasks
 * use; the next slot goes to the waiting owner with the smallest tag. The queue's virtual time is
 * the tag of the last owner served: an owner coming back from idle starts there, so idling earns no
 * credit, while an owner whose tag is ahead of it keeps that debt across its pauses. One owner holds
 * at most `maxPerOwner` slots while others wait, and one far ahead waits while others run. A caller whose
 * tasks run for seconds thus gets about as much slot time as callers whose tasks run for
 * milliseconds, instead of as many tasks.
 */

export interface FairQueueOptions {
  readonly slots: number;
  /** Slots one owner may hold while another owner waits (all of them when nobody else waits). */
  readonly maxPerOwner: number;
  /**
   * An owner whose tag is this far ahead of the queue's virtual time does not start while another
   * owner's task runs, even on a free slot: otherwise a caller of long tasks takes every moment the
   * others leave a slot idle and holds it for seconds. Alone, it runs at once. Infinity turns this off.
   */
  readonly aheadLimitMs?: number;
}

interface OwnerState<T> {
  readonly waiting: T[];
  running: number;
  tag: number;
  /** Slot time of this owner's recent tasks, charged in advance when one starts. */
  typicalMs: number;
}

export interface Started<T> {
  readonly owner: string;
  readonly item: T;
  /** Call once when the task leaves its slot, with the slot time it used. */
  readonly finish: (usedMs: number) => void;
}

const TYPICAL_WEIGHT = 0.25;

/** Idle owners are swept past this many: those without debt first, then the least indebted. */
const MAX_IDLE_OWNERS = 4096;

export class FairQueue<T> {
  private readonly owners = new Map<string, OwnerState<T>>();
  private running = 0;
  private virtualTime = 0;

  constructor(private readonly options: FairQueueOptions) {}

  get waiting(): number {
    let n = 0;
    for (const state of this.owners.values()) n += state.waiting.length;
    return n;
  }

  push(owner: string, item: T): void {
    let state = this.owners.get(owner);
    if (state === undefined) {
      if (this.owners.size >= MAX_IDLE_OWNERS) this.sweep();
      state = { waiting: [], running: 0, tag: this.virtualTime, typicalMs: 0 };
      this.owners.set(owner, state);
    } else if (state.waiting.length === 0 && state.running === 0) {
      state.tag = Math.max(state.tag, this.virtualTime);
    }
    state.waiting.push(item);
  }

  /** Whether an owner other than `owner` has a task waiting. */
  othersWaiting(owner: string): boolean {
    for (const [other, state] of this.owners) if (other !== owner && state.waiting.length > 0) return true;
    return false;
  }

  /** Takes `item` out of the queue if it is still waiting; true when it was. */
  remove(owner: string, item: T): boolean {
    const state = this.owners.get(owner);
    const at = state?.waiting.indexOf(item) ?? -1;
    if (state === undefined || at < 0) return false;
    state.waiting.splice(at, 1);
    this.forgetIfIdle(owner, state);
    return true;
  }

  /** The next task to start, or null when every slot is busy or nothing may start. */
  next(): Started<T> | null {
    if (this.running >= this.options.slots) return null;
    let contenders = 0;
    for (const state of this.owners.values()) if (state.waiting.length > 0) contenders++;
    const aheadLimit = this.options.aheadLimitMs ?? Infinity;
    let chosen: [string, OwnerState<T>] | null = null;
    for (const entry of this.owners) {
      const state = entry[1];
      if (state.waiting.length === 0) continue;
      if (contenders > 1 && state.running >= this.options.maxPerOwner) continue;
      if (state.tag - this.virtualTime > aheadLimit && this.running > state.running) continue;
      if (chosen === null || state.tag < chosen[1].tag) chosen = entry;
    }
    if (chosen === null) return null;
    const [owner, state] = chosen;
    this.virtualTime = Math.max(this.virtualTime, state.tag);
    const item = state.waiting.shift()!;
    state.running++;
    this.running++;
    const advance = state.typicalMs;
    state.tag += advance;
    let finished = false;
    return {
      owner,
      item,
      finish: (usedMs) => {
        if (finished) return;
        finished = true;
        state.running--;
        this.running--;
        state.tag += usedMs - advance;
        state.typicalMs = state.typicalMs === 0 ? usedMs : state.typicalMs + TYPICAL_WEIGHT * (usedMs - state.typicalMs);
        this.forgetIfIdle(owner, state);
      },
    };
  }

  /** Idle owners whose debt is paid carry nothing worth keeping. */
  private forgetIfIdle(owner: string, state: OwnerState<T>): void {
    if (state.waiting.length === 0 && state.running === 0 && state.tag <= this.virtualTime && this.owners.get(owner) === state) this.owners.delete(owner);
  }

  private sweep(): void {
    const idle = [...this.owners].filter(([, state]) => state.waiting.length === 0 && state.running === 0);
    idle.sort((a, b) => a[1].tag - b[1].tag);
    for (const [owner, state] of idle.slice(0, Math.ceil(idle.length / 2))) if (this.owners.get(owner) === state) this.owners.delete(owner);
  }
}
