/**
 * A node's view of the cluster: heartbeats that renew its own lease, and the members as last read,
 * read again every refresh so a dead member drops out within a lease plus a refresh. A failed read
 * keeps the last good view (the database being away must not empty the cluster).
 */
import type { ClusterMember } from '../model/cluster.js';

export interface MemberSource {
  heartbeat(): Promise<void>;
  members(): Promise<ClusterMember[]>;
  leave(): Promise<void>;
}

export interface MemberView {
  /** Live search members, by id order. */
  live(): readonly ClusterMember[];
  stop(): Promise<void>;
}

/** Heartbeat every `everyMs` (a fraction of the lease, so one late beat does not kill a member). */
export async function startMemberView(source: MemberSource, everyMs: number, onError: (error: unknown) => void): Promise<MemberView> {
  let live: readonly ClusterMember[] = [];
  const tick = async (): Promise<void> => {
    await source.heartbeat();
    live = (await source.members()).filter((m) => m.alive && m.role === 'search');
  };
  await tick();
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    running ??= tick().catch(onError).finally(() => { running = null; });
  }, everyMs);
  return {
    live: () => live,
    async stop() {
      clearInterval(timer);
      await running;
      await source.leave().catch(onError);
    },
  };
}
