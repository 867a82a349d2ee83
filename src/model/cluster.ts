/** Cluster members as every layer sees them: who runs which role, where, and how fresh its lease is. */

export type ClusterRole = 'frontend' | 'search' | 'all';

/** warming: building the indexes of the share it will own, routed nothing yet; active: owns and serves its share. */
export type MemberState = 'warming' | 'active';

export interface ClusterMember {
  /** Its address: a node restarted at the same address is the same member and owns what it owned. */
  readonly id: string;
  readonly role: ClusterRole;
  /** Base URL other nodes call it at (http://host:port). */
  readonly address: string;
  /** Milliseconds since its last heartbeat, by the database's clock. */
  readonly leaseAgeMs: number;
  /** False once its lease expired: a dead member owns nothing. */
  readonly alive: boolean;
  readonly state: MemberState;
}
