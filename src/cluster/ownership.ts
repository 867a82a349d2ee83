/**
 * Which search members own which repositories: rendezvous (highest random weight) hashing. Each
 * repository ranks every live member by a hash of (member, repository) and is owned by the first
 * `replication` of them, the first being its primary. A member leaving moves only the repositories
 * it owned (each to the next member in its ranking); a member joining takes only those it now ranks
 * first for. Pure: no I/O, no clock.
 */
import { createHash } from 'node:crypto';

/** The replication factor when none is configured: one replica beside each primary. */
export const DEFAULT_REPLICATION = 2;

/** The hash weight of `member` for `repo`: 48 bits of SHA-256, so ties are practically impossible. */
function weight(member: string, repo: string): number {
  return createHash('sha256').update(member).update('\0').update(repo).digest().readUIntBE(0, 6);
}

/** Every member in the order `repo` prefers them (ties by member id, so the order is total). */
export function ranking(repo: string, members: readonly string[]): string[] {
  return members
    .map((member) => ({ member, w: weight(member, repo) }))
    .sort((a, b) => b.w - a.w || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0))
    .map((m) => m.member);
}

/** The owners of `repo`, primary first: the first `replication` members of its ranking. */
export function ownersOf(repo: string, members: readonly string[], replication: number = DEFAULT_REPLICATION): string[] {
  return ranking(repo, members).slice(0, Math.max(1, replication));
}

export interface OwnershipCounts {
  /** Repositories the member is primary for. */
  readonly primary: number;
  /** Repositories the member holds as a replica. */
  readonly replica: number;
}

/** Per member, how many repositories it owns as primary and as replica. */
export function ownershipCounts(repos: readonly string[], members: readonly string[], replication: number = DEFAULT_REPLICATION): Map<string, OwnershipCounts> {
  const counts = new Map(members.map((m) => [m, { primary: 0, replica: 0 }]));
  for (const repo of repos) {
    ownersOf(repo, members, replication).forEach((owner, i) => {
      const c = counts.get(owner)!;
      if (i === 0) c.primary++;
      else c.replica++;
    });
  }
  return counts;
}
