-- A search member's state (store/pg/membership.ts): `warming` while it builds the indexes of the
-- share it will own (front ends route nothing to it yet, and the members that own that share now
-- keep it), `active` once it holds them. Members of the previous version were all serving.
ALTER TABLE quarry_cluster_members ADD COLUMN state text NOT NULL DEFAULT 'active';
