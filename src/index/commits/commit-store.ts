/**
 * The commit index on disk: one LMDB environment at `<data>/index/commits.mdb`, holding per
 * repository id its refs as last indexed and its commits in append-only chunks. Storage only: no git.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { requireSpace } from '../lmdb/disk-space.js';
import { committed, WRITABLE } from '../lmdb/writes.js';

/** One commit as indexed; dates are Unix seconds. */
export interface StoredCommit {
  readonly oid: string;
  readonly parents: readonly string[];
  readonly authorName: string;
  readonly authorEmail: string;
  readonly authorDate: number;
  readonly committerName: string;
  readonly committerEmail: string;
  readonly committerDate: number;
  /** The full message without its trailing newline; the subject is its first line. */
  readonly message: string;
  /** Paths changed against the first parent (every path for a root commit); old and new path of a rename. */
  readonly paths: readonly string[];
}

export interface CommitRepoState {
  /** Full ref name → commit, as of the last update. */
  readonly refs: Readonly<Record<string, string>>;
  readonly defaultBranch: string;
  /** Chunks live under this generation; a rebuild writes a new one, so readers never see a mix. */
  readonly generation: number;
  readonly chunkCount: number;
  readonly commitCount: number;
  /** Bumped on every change, so readers can cache what they built from the chunks. */
  readonly version: number;
}

export interface CommitStore {
  state(repoId: number): CommitRepoState | undefined;
  /** The chunks of the current generation, in the order they were appended. */
  chunks(repoId: number): Iterable<readonly StoredCommit[]>;
  /** Writes chunks that stay invisible until a state naming them is committed. */
  putChunks(repoId: number, generation: number, firstIndex: number, chunks: readonly (readonly StoredCommit[])[]): Promise<void>;
  /** Makes `state` current and drops the chunks of the generation it replaces, if different. */
  commit(repoId: number, state: CommitRepoState): Promise<void>;
  remove(repoId: number): Promise<void>;
  close(): Promise<void>;
}

type ChunkKey = [number, number, number];

const WHAT = 'updating the commit index';

export function openCommitStore(dataDir: string, options: { readOnly?: boolean } = {}): CommitStore {
  const dir = join(dataDir, 'index');
  mkdirSync(dir, { recursive: true });
  const env: RootDatabase = open({ path: join(dir, 'commits.mdb'), noSubdir: true, maxDbs: 4, readOnly: options.readOnly ?? false, ...WRITABLE });
  const states: Database<CommitRepoState, number> = env.openDB({ name: 'states', encoding: 'msgpack' });
  const chunkDb: Database<StoredCommit[], ChunkKey> = env.openDB({ name: 'chunks', encoding: 'msgpack' });
  const dropGeneration = (repoId: number, generation: number): void => {
    for (const key of chunkDb.getKeys({ start: [repoId, generation, 0], end: [repoId, generation + 1, 0] })) void chunkDb.remove(key);
  };
  return {
    state: (repoId) => states.get(repoId),
    *chunks(repoId) {
      const state = states.get(repoId);
      if (!state) return;
      for (let i = 0; i < state.chunkCount; i++) {
        const chunk = chunkDb.get([repoId, state.generation, i]);
        if (chunk) yield chunk;
      }
    },
    async putChunks(repoId, generation, firstIndex, chunks) {
      // A failed commit is worse than a refusal (lmdb/disk-space.ts): refuse while there is room.
      requireSpace(dir, chunks.reduce((n, c) => n + c.length * 512, 0), WHAT);
      await committed(env.transaction(() => {
        chunks.forEach((chunk, i) => void chunkDb.put([repoId, generation, firstIndex + i], [...chunk]));
      }), dir, WHAT);
    },
    async commit(repoId, state) {
      await committed(env.transaction(() => {
        const old = states.get(repoId);
        if (old && old.generation !== state.generation) dropGeneration(repoId, old.generation);
        void states.put(repoId, state);
      }), dir, WHAT);
      await committed(env.flushed, dir, WHAT);
    },
    async remove(repoId) {
      await committed(env.transaction(() => {
        const old = states.get(repoId);
        if (old) dropGeneration(repoId, old.generation);
        void states.remove(repoId);
      }), dir, WHAT);
    },
    close: () => env.close(),
  };
}
