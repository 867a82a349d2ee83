/**
 * Keeps a repository's commit index current: every commit reachable from its branches and tags.
 * After a fetch only the new commits are read (`git log <new tips> ^<known tips>`); when a known
 * tip is gone from the mirror (force push, then gc) the index is rebuilt. Never reads blobs.
 */
import { defaultBranch } from '../git/mirror.js';
import { isQuarryError } from '../errors.js';
import { runGit } from '../git/run.js';
import type { CommitRepoState, CommitStore, StoredCommit } from '../index/commits/commit-store.js';
import { streamCommits } from './git-log.js';

export interface CommitIndexOutcome {
  readonly mode: 'full' | 'incremental' | 'unchanged';
  readonly added: number;
  readonly total: number;
}

const CHUNK_COMMITS = 2048;
const LOG_TIMEOUT_MS = 60 * 60_000;

export async function updateCommitIndex(store: CommitStore, repoId: number, gitDir: string): Promise<CommitIndexOutcome> {
  const refs = await commitRefs(gitDir);
  const branch = await defaultBranch(gitDir);
  const old = store.state(repoId);
  if (old && old.defaultBranch === branch && sameRefs(old.refs, refs)) return { mode: 'unchanged', added: 0, total: old.commitCount };
  if (old) {
    try {
      return await writeCommits(store, repoId, gitDir, refs, branch, old);
    } catch (err) {
      if (!isQuarryError(err, 'GIT_FAILED') || err.details['timedOut'] === true) throw err;
    }
  }
  return writeCommits(store, repoId, gitDir, refs, branch, undefined);
}

async function writeCommits(store: CommitStore, repoId: number, gitDir: string, refs: Record<string, string>, branch: string, old: CommitRepoState | undefined): Promise<CommitIndexOutcome> {
  const known = new Set(Object.values(old?.refs ?? {}));
  const tips = [...new Set(Object.values(refs))].filter((oid) => !known.has(oid));
  const generation = old ? old.generation : Math.max(Date.now(), (store.state(repoId)?.generation ?? 0) + 1);
  let chunkCount = old?.chunkCount ?? 0;
  let added = 0;
  if (tips.length > 0) {
    const revisions = [...tips, ...[...known].map((oid) => `^${oid}`)];
    await streamCommits(gitDir, { revisions, batchSize: CHUNK_COMMITS, timeoutMs: LOG_TIMEOUT_MS }, async (commits) => {
      const chunks = chunked(commits);
      await store.putChunks(repoId, generation, chunkCount, chunks);
      chunkCount += chunks.length;
      added += commits.length;
    });
  }
  const total = (old?.commitCount ?? 0) + added;
  await store.commit(repoId, { refs, defaultBranch: branch, generation, chunkCount, commitCount: total, version: (store.state(repoId)?.version ?? 0) + 1 });
  return { mode: old ? 'incremental' : 'full', added, total };
}

function chunked(commits: StoredCommit[]): StoredCommit[][] {
  const chunks: StoredCommit[][] = [];
  for (let i = 0; i < commits.length; i += CHUNK_COMMITS) chunks.push(commits.slice(i, i + CHUNK_COMMITS));
  return chunks;
}

/** Branches and tags whose (peeled) target is a commit; a tag on a tree or blob has no history. */
export async function commitRefs(gitDir: string): Promise<Record<string, string>> {
  const format = '--format=%(refname)%00%(objecttype)%00%(objectname)%00%(*objecttype)%00%(*objectname)';
  const out = await runGit(['for-each-ref', format, 'refs/heads', 'refs/tags'], { gitDir, maxBytes: 256 * 1024 * 1024 });
  const refs: Record<string, string> = {};
  for (const line of out.toString('utf8').split('\n')) {
    const [name = '', type = '', oid = '', peeledType = '', peeled = ''] = line.split('\0');
    if (peeledType === 'commit') refs[name] = peeled;
    else if (type === 'commit') refs[name] = oid;
  }
  return refs;
}

export function sameRefs(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}
