/**
 * The "skipped" notices a search reports about itself (stream API progress.skipped, reference §3.4).
 */
import type { SkippedNotice } from '../model/result.js';

/** `failedRepos`: the repositories whose shards failed, named so a caller knows what is missing. */
export function limitNotices(limitHit: boolean, timedOut: boolean, failed: number, failedRepos: readonly string[] = []): SkippedNotice[] {
  const out: SkippedNotice[] = [];
  if (limitHit) {
    out.push({
      reason: 'shard-match-limit',
      title: 'result limit hit',
      message: 'Not all results have been returned due to hitting a match limit. Sourcegraph has limits for the number of results returned from a line, document and repository.',
      severity: 'info',
      suggested: { title: 'increase limit', queryExpression: 'count:all' },
    });
  }
  if (timedOut) {
    out.push({
      reason: 'shard-timeout',
      title: 'search timed out',
      message: 'Some shards did not finish before the timeout; results are partial. Raise it with `timeout:` (at most 1m).',
      severity: 'warn',
      suggested: { title: 'longer timeout', queryExpression: 'timeout:60s' },
    });
  }
  if (failed > 0) {
    out.push({
      reason: 'shard-failed',
      title: `${failed} ${failed === 1 ? 'shard' : 'shards'} failed`,
      message: `Some index shards could not be searched${failedRepos.length > 0 ? ` (${failedRepos.join(', ')})` : ''}; results are partial.`,
      severity: 'warn',
    });
  }
  return out;
}
