/**
 * The history index for the rest of the service: updates serialized per repository (a second
 * caller joins the running update) and readers for searches, null for a repository never indexed.
 */
import type { HistoryIndexes } from '../index/history/history-store.js';
import type { DiffIndexReader } from './diff-index-filter.js';
import { updateHistoryIndex, type DiffPostingsRunner, type HistoryIndexOutcome } from './history-indexer.js';
import type { HistoryRepo } from './history-service.js';

export interface HistoryIndexService {
  update(repo: HistoryRepo): Promise<HistoryIndexOutcome>;
  reader(repoId: number): DiffIndexReader | null;
}

export function createHistoryIndexService(indexes: HistoryIndexes, pool: DiffPostingsRunner): HistoryIndexService {
  const running = new Map<number, Promise<HistoryIndexOutcome>>();
  return {
    update(repo) {
      const joined = running.get(repo.id);
      if (joined) return joined;
      const started = updateHistoryIndex(indexes.of(repo.id), repo.gitDir, pool).finally(() => running.delete(repo.id));
      running.set(repo.id, started);
      return started;
    },
    reader: (repoId) => (indexes.exists(repoId) ? indexes.of(repoId) : null),
  };
}
