/**
 * Revisions that are not indexed, served from the bare mirror: resolve a rev to a commit, then
 * stream that commit's text files in batches for the shard workers to scan (Sourcegraph's
 * "unindexed search"). Binary and oversized files are skipped as the indexer skips them.
 */
import { createBlobReader } from '../git/blobs.js';
import { resolveRevision } from '../git/mirror.js';
import { readAhead } from '../git/read-ahead.js';
import { listTree } from '../git/tree.js';
import { packMemoryDocs } from '../index/memory-source.js';
import { isBinary } from '../model/binary.js';
import type { RevisionSource } from '../search/contracts.js';
import { gitDirOf, type RepoContext } from './registry.js';

export function createRevisionSource(ctx: RepoContext, maxFileSize: number): RevisionSource {
  return {
    resolve: (repo, rev) => resolveRevision(gitDirOf(ctx, repo), rev),
    async readBatches(repo, commit, batchBytes, onBatch) {
      const gitDir = gitDirOf(ctx, repo);
      const { entries } = await listTree(gitDir, commit);
      const blobs = createBlobReader(gitDir, { maxBytes: maxFileSize + 1 });
      try {
        const texts = entries.filter((e) => e.size <= maxFileSize);
        let batch: { path: string; content: Uint8Array }[] = [];
        let bytes = 0;
        let i = 0;
        for await (const content of readAhead(blobs, texts.map((e) => e.blobOid))) {
          const path = texts[i++]!.path;
          if (content === null || isBinary(content)) continue;
          batch.push({ path, content });
          bytes += content.length;
          if (bytes >= batchBytes) {
            await onBatch(packMemoryDocs(batch));
            batch = [];
            bytes = 0;
          }
        }
        if (batch.length > 0) await onBatch(packMemoryDocs(batch));
      } finally {
        await blobs.close();
      }
    },
  };
}
