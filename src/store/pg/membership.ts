/**
 * Cluster membership in PostgreSQL (migration 002_cluster.sql): a node's heartbeat renews its lease,
 * and a member whose lease expired by the database's clock is dead. A pool of its own, so a
 * heartbeat never queues behind the store's writes, and a lost connection is replaced on the next call.
 */
import pg from 'pg';
import type { ClusterMember, ClusterRole, MemberState } from '../../model/cluster.js';
import { migrate } from './migrate.js';

export interface MemberSelf {
  readonly id: string;
  readonly role: ClusterRole;
  readonly address: string;
}

export interface Membership {
  /** Registers this node, or renews its lease for another `leaseMs`, with its state as last set. */
  heartbeat(): Promise<void>;
  /** Sets this node's state (written at once and with every heartbeat after). */
  setState(state: MemberState): Promise<void>;
  /** Every registered member, alive or not (dead ones are kept an hour for `cluster status`). */
  members(): Promise<ClusterMember[]>;
  /** Ends this node's lease at once: a graceful stop hands its repositories over without waiting. */
  leave(): Promise<void>;
  close(): Promise<void>;
}

/** Dead members are forgotten after this long. */
const FORGET_AFTER = '1 hour';

export async function openMembership(url: string, self: MemberSelf | null, leaseMs: number, initialState: MemberState = 'active'): Promise<Membership> {
  let state = initialState;
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5_000 });
  // An idle client's error would otherwise end the process; the next query takes a fresh client.
  pool.on('error', () => undefined);
  const client = await pool.connect();
  try {
    await migrate(client);
  } finally {
    client.release();
  }
  return {
    async heartbeat() {
      if (self === null) return;
      await pool.query(
        `INSERT INTO quarry_cluster_members (id, role, address, lease_expires_at, state)
         VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond', $5)
         ON CONFLICT (id) DO UPDATE SET role = $2, address = $3, heartbeat_at = now(), lease_expires_at = now() + $4 * interval '1 millisecond', state = $5`,
        [self.id, self.role, self.address, leaseMs, state]);
      await pool.query(`DELETE FROM quarry_cluster_members WHERE lease_expires_at < now() - interval '${FORGET_AFTER}'`);
    },
    async setState(next) {
      state = next;
      if (self !== null) await pool.query('UPDATE quarry_cluster_members SET state = $2 WHERE id = $1', [self.id, next]);
    },
    async members() {
      const { rows } = await pool.query<{ id: string; role: ClusterRole; address: string; age: number; alive: boolean; state: MemberState }>(
        `SELECT id, role, address, (extract(epoch FROM now() - heartbeat_at) * 1000)::float8 AS age, lease_expires_at > now() AS alive, state
           FROM quarry_cluster_members ORDER BY id`);
      return rows.map((r) => ({ id: r.id, role: r.role, address: r.address, leaseAgeMs: Math.max(0, Math.round(r.age)), alive: r.alive, state: r.state }));
    },
    async leave() {
      if (self === null) return;
      await pool.query('UPDATE quarry_cluster_members SET lease_expires_at = now() WHERE id = $1', [self.id]);
    },
    close: () => pool.end(),
  };
}
