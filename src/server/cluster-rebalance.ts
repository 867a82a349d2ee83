/**
 * A search node's share as members come and go. Joining while others serve, it starts `warming`:
 * it syncs and indexes the share it will own among the active members and itself, and front ends
 * route nothing to it; once every repository of that share has been synced and indexed here it
 * turns `active`, and the front ends' next view sends it its share. Repositories it no longer owns
 * (a node joined and took them) keep their index and mirror for a grace period, for front ends
 * still on the older view, and are then removed.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ownersOf } from '../cluster/ownership.js';
import { errorMessage } from '../errors.js';
import { segmentsDir } from '../index/lmdb/catalog.js';
import type { MemberState } from '../model/cluster.js';
import { mirrorDir } from '../repos/registry.js';
import type { Services } from '../services.js';
import { getRepo, listRepos } from '../store/repos.js';
import { readdirSync } from 'node:fs';

/** A node warming longer than this turns active with what it has (a repository that never indexes must not keep it out for good). */
const WARMUP_MAX_MS = 30 * 60_000;

export interface Rebalancer {
  /** Whether this node owns (or, warming, will own) the repository. */
  owns(repo: string): boolean;
  /** The sync schedule finished a repository: fetched, and indexed or found current. */
  settled(repo: string): void;
  /** Once per heartbeat: turns active when warm, retires what it no longer owns past the grace. */
  tick(): Promise<void>;
  state(): MemberState;
}

export interface RebalanceDeps {
  readonly services: Services;
  readonly self: string;
  /** Ids of the live, active search members, as last read. */
  readonly active: () => readonly string[];
  readonly initial: MemberState;
  readonly setState: (state: MemberState) => Promise<void>;
  readonly log: (line: string) => void;
}

export function createRebalancer(deps: RebalanceDeps): Rebalancer {
  const { services, self } = deps;
  const { config } = services;
  let state = deps.initial;
  const startedAt = Date.now();
  const settled = new Set<string>();
  const unownedSince = new Map<string, number>();
  const owns = (repo: string): boolean => ownersOf(repo, [...new Set([...deps.active(), self])], config.replication).includes(self);
  const names = (): string[] => listRepos(services.store).map((r) => r.name);

  const warm = async (): Promise<void> => {
    const share = names().filter(owns);
    const waiting = share.filter((repo) => !settled.has(repo) || services.catalog.get(repo) === undefined);
    const overdue = Date.now() - startedAt > WARMUP_MAX_MS;
    if (waiting.length > 0 && !overdue) return;
    await deps.setState('active');
    state = 'active';
    deps.log(`cluster: warmed up: ${share.length - waiting.length} of ${share.length} repositories indexed here; now active${waiting.length > 0 ? ` (not indexed: ${waiting.join(', ')})` : ''}`);
  };

  const retire = async (): Promise<void> => {
    const now = Date.now();
    for (const manifest of services.catalog.list()) {
      if (owns(manifest.repo)) {
        unownedSince.delete(manifest.repo);
        continue;
      }
      const since = unownedSince.get(manifest.repo) ?? now;
      unownedSince.set(manifest.repo, since);
      if (now - since < config.retireGraceMs) continue;
      unownedSince.delete(manifest.repo);
      settled.delete(manifest.repo);
      await services.catalog.remove(manifest.repo);
      const record = getRepo(services.store, manifest.repo);
      for (const entry of readdirSync(segmentsDir(config.dataDir))) {
        if (record !== undefined && entry.startsWith(`${record.id}-`)) rmSync(join(segmentsDir(config.dataDir), entry), { recursive: true, force: true });
      }
      if (record !== undefined) rmSync(mirrorDir({ dataDir: config.dataDir, store: services.store }, record), { recursive: true, force: true });
      deps.log(`cluster: ${manifest.repo} is owned elsewhere since ${Math.round((now - since) / 1000)} s: its index and mirror are removed here`);
    }
  };

  return {
    owns,
    settled: (repo) => settled.add(repo),
    state: () => state,
    async tick() {
      try {
        if (state === 'warming') await warm();
        // Only an active node gives anything up: while warming, what it owns is still being decided.
        else await retire();
      } catch (error) {
        deps.log(`cluster: rebalancing failed: ${errorMessage(error)}`);
      }
    },
  };
}
