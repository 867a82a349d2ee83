/**
 * One shard plan over one selected repository, as tasks for the worker pool: doc ranges of the
 * indexed segments for the indexed commit, batches of the revision's tree for any other revision.
 * The only caller of the pool's shard tasks; results and failures go to the search's collector.
 */
import { isQuarryError } from '../../errors.js';
import type { ShardTask } from '../../pool/messages.js';
import type { ShardPlan } from '../../shard/plan.js';
import type { ShardResume } from '../../shard/search-shard.js';
import { STOP } from '../../shard/stop-flags.js';
import type { Collector, RepoContext } from '../collector.js';
import type { CatalogView, RevisionSource, ShardRunner } from '../contracts.js';
import type { RepoTarget } from '../select-repos.js';
import { createRangeBoard, SHARE_WINDOW_MS, type RangeShare } from '../../shard/range-share.js';
import { segmentRanges, type SegmentRange } from '../tasks.js';

export interface FanoutDeps {
  readonly catalog: CatalogView;
  readonly runner: ShardRunner;
  readonly revisions: RevisionSource;
}

const UNINDEXED_BATCH_BYTES = 8 * 1024 * 1024;

export async function searchTarget(deps: FanoutDeps, target: RepoTarget, plan: ShardPlan, collector: Collector, deadline: number, signal?: AbortSignal): Promise<void> {
  const { manifest } = target;
  const revs = target.revs.length > 0 ? target.revs : [manifest.branch];
  for (const rev of revs) {
    const commit = rev === manifest.branch || rev === 'HEAD' || rev === manifest.commit ? manifest.commit : await deps.revisions.resolve(manifest.repo, rev);
    const repo: RepoContext = { repository: manifest.repo, repositoryID: manifest.repoId, commit, branches: [rev] };
    if (commit === manifest.commit) {
      const ranges = segmentRanges(manifest, deps.runner.threads);
      const shares = rangeShares(ranges);
      await Promise.all(ranges.map((range, i) => runTask(deps, collector, repo, signal, {
        source: deps.catalog.source(range.segmentId),
        lo: range.lo, hi: range.hi, deleted: range.deleted, plan, limit: collector.remaining, deadline, stop: collector.stop, share: shares[i]!,
      })));
      continue;
    }
    const pending: Promise<void>[] = [];
    // A batch's documents move to the worker, so no task could resume one that returned at its
    // first match: its tasks see the stop slot alone (stop-flags.ts), and search the batch whole.
    const stopOnly = collector.stop.subarray(STOP, STOP + 1);
    await deps.revisions.readBatches(manifest.repo, commit, UNINDEXED_BATCH_BYTES, async (docs) => {
      if (Atomics.load(collector.stop, STOP) !== 0) return;
      pending.push(runTask(deps, collector, repo, signal, {
        source: { kind: 'memory', ...docs }, lo: 0, hi: docs.paths.length, deleted: [], plan,
        limit: collector.remaining, deadline, stop: stopOnly,
      }));
    });
    await Promise.all(pending);
  }
}

/** Per range, the share of its segment's ranges (null for a segment searched as one range). */
function rangeShares(ranges: readonly SegmentRange[]): (RangeShare | null)[] {
  const bySegment = new Map<string, SegmentRange[]>();
  for (const range of ranges) bySegment.set(range.segmentId, [...(bySegment.get(range.segmentId) ?? []), range]);
  const shares = new Map<SegmentRange, RangeShare>();
  for (const group of bySegment.values()) {
    if (group.length < 2) continue;
    const board = createRangeBoard(group.length);
    const shared = group.map(({ lo, hi, deleted }) => ({ lo, hi, deleted }));
    group.forEach((range, own) => shares.set(range, { board, ranges: shared, own, windowMs: SHARE_WINDOW_MS }));
  }
  return ranges.map((range) => shares.get(range) ?? null);
}

async function runTask(deps: FanoutDeps, collector: Collector, repo: RepoContext, signal: AbortSignal | undefined, task: ShardTask): Promise<void> {
  if (Atomics.load(collector.stop, STOP) !== 0) {
    collector.limitHit = true;
    return;
  }
  let resume: ShardResume | undefined;
  try {
    const result = await deps.runner.submit('shard', { ...task, limit: collector.remaining }, { signal, deadline: task.deadline });
    resume = result.resume;
    // A task that returned at its first match is one shard search with the task that resumes it.
    collector.add(repo, resume ? { ...result, stats: { ...result.stats, shardsSearched: 0 } } : result);
  } catch (err) {
    if (isQuarryError(err, 'ABORTED')) throw err;
    if (!isQuarryError(err, 'TIMEOUT') && !isQuarryError(err, 'SHARD_CRASHED')) throw err;
    collector.fail(isQuarryError(err, 'TIMEOUT'), repo.repository);
  }
  if (resume) await runTask(deps, collector, repo, signal, resumedTask(task, resume));
}

/**
 * The task that goes on where one that returned at its first match left off. A shared range may
 * be one the task had joined, not its own: the resumed task owns it, with its bounds and tombstones.
 */
export function resumedTask(task: ShardTask, resume: ShardResume): ShardTask {
  if ('lo' in resume) return { ...task, lo: resume.lo };
  const { lo, hi, deleted } = task.share!.ranges[resume.range]!;
  return { ...task, lo, hi, deleted, share: { ...task.share!, own: resume.range, resumed: true } };
}
