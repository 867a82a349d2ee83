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
  /** Call once when the task leaves its slot, with the slot time it used; null when it ran elsewhere instead (nothing charged or learned). */
  readonly finish: (usedMs: number | null) => void;
}

const TYPICAL_WEIGHT = 0.25;

/** Idle owners are swept past this many: those without debt first, then the least indebted. */
const MAX_IDLE_OWNERS = 4096;
/** Owners whose last finish is remembered, to tell whether others used the slots lately. */
const RECENT_FINISHES = 64;

/** A heavy owner's typical task is at least this many times the other owners' average. */
const HEAVY_OVER_OTHERS = 4;

/** When an owner's tasks count as heavy (see `heavy`). */
export interface HeavyThresholds {
  /** Its recent tasks held a slot this long on average. */
  readonly typicalMs: number;
  /** Or its tag is this far ahead of the queue's virtual time. */
  readonly aheadMs: number;
  /** Another owner counts as active when it has work now or finished a task this recently. */
  readonly activeWindowMs: number;
}

export class FairQueue<T> {
  private readonly owners = new Map<string, OwnerState<T>>();
  private running = 0;
  private virtualTime = 0;
  /** Owner → when its last task finished (performance.now()), the most recent few. */
  private readonly recentFinishes = new Map<string, number>();

  constructor(private readonly options: FairQueueOptions) {}

  get waiting(): number {
    let n = 0;
    for (const state of this.owners.values()) n += state.waiting.length;
    return n;
  }

  push(owner: string, item: T): void {
    const state = this.activeState(owner);
    state.waiting.push(item);
  }

  /** The owner's state, made or woken: an owner back from idle starts at the queue's present, not its past. */
  private activeState(owner: string): OwnerState<T> {
    let state = this.owners.get(owner);
    if (state === undefined) {
      if (this.owners.size >= MAX_IDLE_OWNERS) this.sweep();
      state = { waiting: [], running: 0, tag: this.virtualTime, typicalMs: 0 };
      this.owners.set(owner, state);
    } else if (state.waiting.length === 0 && state.running === 0) {
      state.tag = Math.max(state.tag, this.virtualTime);
    }
    return state;
  }

  /** Whether an owner other than `owner` has a task waiting. */
  othersWaiting(owner: string): boolean {
    for (const [other, state] of this.owners) if (other !== owner && state.waiting.length > 0) return true;
    return false;
  }

  /**
   * Whether `owner` is heavy while others use the slots: its recent tasks hold a slot for long (and
   * several times as long as the others' do) or it is far ahead of its share, and another owner has
   * work or had some a moment ago. Such an
   * owner's next task is better run where it cannot delay the others (piscina-pool.ts).
   */
  heavy(owner: string, thresholds: HeavyThresholds, now = performance.now()): boolean {
    const state = this.owners.get(owner);
    if (state === undefined) return false;
    if (state.typicalMs < thresholds.typicalMs && state.tag - this.virtualTime <= thresholds.aheadMs) return false;
    // On a machine so busy that every caller's tasks take long, nobody is singled out.
    let othersTypical = 0;
    let others = 0;
    for (const [other, otherState] of this.owners) {
      if (other === owner || otherState.typicalMs === 0) continue;
      othersTypical += otherState.typicalMs;
      others++;
    }
    if (others > 0 && state.typicalMs < HEAVY_OVER_OTHERS * (othersTypical / others)) return false;
    for (const [other, otherState] of this.owners) if (other !== owner && (otherState.running > 0 || otherState.waiting.length > 0)) return true;
    for (const [other, at] of this.recentFinishes) if (other !== owner && now - at <= thresholds.activeWindowMs) return true;
    return false;
  }

  /**
   * Charges `owner` for slot time its task used outside this queue's slots (a side lane), as if
   * it had run here: its tag and typical task time move the same way.
   */
  charge(owner: string, usedMs: number): void {
    const state = this.activeState(owner);
    state.tag += usedMs;
    state.typicalMs = state.typicalMs === 0 ? usedMs : state.typicalMs + TYPICAL_WEIGHT * (usedMs - state.typicalMs);
    this.forgetIfIdle(owner, state);
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
        if (usedMs === null) {
          state.tag -= advance;
        } else {
          state.tag += usedMs - advance;
          state.typicalMs = state.typicalMs === 0 ? usedMs : state.typicalMs + TYPICAL_WEIGHT * (usedMs - state.typicalMs);
          this.noteFinish(owner);
        }
        this.forgetIfIdle(owner, state);
      },
    };
  }

  private noteFinish(owner: string): void {
    this.recentFinishes.delete(owner);
    this.recentFinishes.set(owner, performance.now());
    if (this.recentFinishes.size > RECENT_FINISHES) this.recentFinishes.delete(this.recentFinishes.keys().next().value as string);
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
