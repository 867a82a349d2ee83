/**
 * git log's default order replayed over the commit index, so diff search lists its candidates
 * without running git: the tips by committer date, then repeatedly the newest commit waiting, its
 * parents queued once each; equal dates leave in the order they were queued, as git's date-sorted
 * insertion does. Only for walks without exclusions (git limits those differently): callers fall back to git.
 */
import type { CommitTable } from './commit-table.js';

/** Ordinals of the commits reachable from `tips` (ordinals), in the order `git log <tips>` prints them. */
export function walkLikeGitLog(table: CommitTable, tips: readonly number[]): number[] {
  const queue = new DateQueue(table);
  const seen = new Uint8Array(table.size);
  for (const tip of tips) {
    if (seen[tip] === 1) continue;
    seen[tip] = 1;
    queue.push(tip);
  }
  const order: number[] = [];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    order.push(next);
    for (const parent of table.parentsOf(next)) {
      if (seen[parent] === 1) continue;
      seen[parent] = 1;
      queue.push(parent);
    }
  }
  return order;
}

/** A binary heap: the newest committer date first, then the earliest queued. */
class DateQueue {
  private readonly ordinals: number[] = [];
  private readonly sequence: number[] = [];
  private queued = 0;

  constructor(private readonly table: CommitTable) {}

  push(ordinal: number): void {
    this.ordinals.push(ordinal);
    this.sequence.push(this.queued++);
    let at = this.ordinals.length - 1;
    while (at > 0) {
      const up = (at - 1) >> 1;
      if (!this.before(at, up)) break;
      this.swap(at, up);
      at = up;
    }
  }

  pop(): number | undefined {
    const top = this.ordinals[0];
    if (top === undefined) return undefined;
    const lastOrdinal = this.ordinals.pop()!;
    const lastSequence = this.sequence.pop()!;
    if (this.ordinals.length > 0) {
      this.ordinals[0] = lastOrdinal;
      this.sequence[0] = lastSequence;
      let at = 0;
      for (;;) {
        const left = at * 2 + 1;
        const right = left + 1;
        let best = at;
        if (left < this.ordinals.length && this.before(left, best)) best = left;
        if (right < this.ordinals.length && this.before(right, best)) best = right;
        if (best === at) break;
        this.swap(at, best);
        at = best;
      }
    }
    return top;
  }

  private before(a: number, b: number): boolean {
    const dateA = this.table.commits[this.ordinals[a]!]!.committerDate;
    const dateB = this.table.commits[this.ordinals[b]!]!.committerDate;
    return dateA !== dateB ? dateA > dateB : this.sequence[a]! < this.sequence[b]!;
  }

  private swap(a: number, b: number): void {
    [this.ordinals[a], this.ordinals[b]] = [this.ordinals[b]!, this.ordinals[a]!];
    [this.sequence[a], this.sequence[b]] = [this.sequence[b]!, this.sequence[a]!];
  }
}
