-- The change log is pruned (pg/change-log.ts): this one row says up to which change number entries
-- may be gone, so a node whose last replayed change is older loads a snapshot instead of replaying.
CREATE TABLE quarry_store_log_horizon (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  pruned_through bigint NOT NULL
);
INSERT INTO quarry_store_log_horizon (one, pruned_through) VALUES (true, 0);
