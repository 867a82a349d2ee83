/**
 * Per caller, a bucket of milliseconds (of some shared resource's time) refilled at `perMinute` and
 * holding as much: a caller may overdraw it once, then waits until it is back above zero. Work
 * without a caller is never limited.
 */
import { UNOWNED } from './work-owner.js';

const MS_PER_MINUTE = 60_000;
/** Callers whose buckets are tracked; full buckets are forgotten first past it. */
const MAX_TRACKED_OWNERS = 4096;

export class OwnerBudgets {
  private readonly buckets = new Map<string, { level: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** How long `owner` must wait before its next check; 0 when it may go now. */
  waitMs(owner: string): number {
    if (owner === UNOWNED) return 0;
    const level = this.level(owner);
    return level > 0 ? 0 : Math.ceil((-level / this.perMinute) * MS_PER_MINUTE) + 1;
  }

  charge(owner: string, ms: number): void {
    if (owner === UNOWNED || ms <= 0) return;
    const level = this.level(owner) - ms;
    if (!this.buckets.has(owner) && this.buckets.size >= MAX_TRACKED_OWNERS) this.forgetFullest();
    this.buckets.set(owner, { level, at: this.now() });
  }

  private level(owner: string): number {
    const bucket = this.buckets.get(owner);
    if (bucket === undefined) return this.perMinute;
    return Math.min(this.perMinute, bucket.level + ((this.now() - bucket.at) * this.perMinute) / MS_PER_MINUTE);
  }

  private forgetFullest(): void {
    for (const owner of this.buckets.keys()) if (this.level(owner) >= this.perMinute) this.buckets.delete(owner);
    if (this.buckets.size >= MAX_TRACKED_OWNERS) this.buckets.delete(this.buckets.keys().next().value as string);
  }
}
