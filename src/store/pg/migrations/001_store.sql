-- Quarry's instance store on PostgreSQL: every table of the store (store/open.ts) as rows of one
-- keyed table, each row stamped with the change that last wrote it, and the log of changes that
-- other nodes replay (pg/pg-engine.ts). Keys and values are JSON, as in the LMDB engine.
CREATE SEQUENCE quarry_store_seq;

CREATE TABLE quarry_store_rows (
  tbl text NOT NULL,
  key text NOT NULL,
  value jsonb NOT NULL,
  version bigint NOT NULL,
  PRIMARY KEY (tbl, key)
);

CREATE TABLE quarry_store_changes (
  seq bigint NOT NULL,
  tbl text NOT NULL,
  key text NOT NULL,
  PRIMARY KEY (seq, tbl, key)
);
