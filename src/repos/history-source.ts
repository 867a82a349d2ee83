/**
 * The registry as the history service's repository source (history/repo-history.ts declares the
 * seam; main.ts wires this in): registry records with their bare mirrors. A record whose mirror
 * has not been fetched yet has no history to offer and is left out.
 */
import type { HistoryRepo } from '../history/history-service.js';
import type { HistoryRepoSource } from '../history/repo-history.js';
import type { RepoRecord } from '../store/records.js';
import { getRepo, listRepos } from '../store/repos.js';
import { mirrorDir, type RepoContext } from './registry.js';

export function registryHistorySource(ctx: RepoContext): HistoryRepoSource {
  const toHistory = (record: RepoRecord): HistoryRepo => ({ name: record.name, id: record.id, gitDir: mirrorDir(ctx, record) });
  return {
    get(name) {
      const record = getRepo(ctx.store, name);
      return record && record.lastFetchedAt !== null ? toHistory(record) : undefined;
    },
    list: () => listRepos(ctx.store).filter((r) => r.lastFetchedAt !== null).map(toHistory),
  };
}
