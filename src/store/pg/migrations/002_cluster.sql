-- Cluster membership (store/pg/membership.ts): every node started with --role registers here and
-- renews its lease with heartbeats; a member whose lease has expired (by the database's clock, so
-- nodes' clocks never disagree about it) is dead. Search members own repositories by rendezvous hashing.
CREATE TABLE quarry_cluster_members (
  id text PRIMARY KEY,
  role text NOT NULL,
  address text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  lease_expires_at timestamptz NOT NULL
);
