/**
 * The history index on disk: per repository one LMDB environment at
 * `<data>/index/history/<repo id>.mdb` holding the ordinal of every indexed commit, the trigram
 * postings of their changed lines (one list per key and batch) and the refs as last indexed.
 * Each batch is one transaction, so a killed build keeps every batch it finished. Storage only: no git.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { lmdbBytes, requireSpace } from '../lmdb/disk-space.js';
import { committed, WRITABLE } from '../lmdb/writes.js';
import { decodePostings } from '../postings.js';
import type { DiffPostingsRun } from './diff-postings.js';

export interface HistoryIndexState {
  /** Full ref name → commit, as of the last complete update. */
  readonly refs: Readonly<Record<string, string>>;
}

export interface HistoryIndex {
  state(): HistoryIndexState | undefined;
  /** The ordinal the next indexed commit gets: every ordinal below it is taken. */
  nextOrdinal(): number;
  /** The commit's ordinal, or undefined when it is not indexed. */
  ordinalOf(oid: string): number | undefined;
  /** The ordinals listed under `key` in every batch, ascending. */
  postings(key: number): Uint32Array;
  /** Adds a batch of commits (ordinals from nextOrdinal() on, ascending) and their postings atomically. */
  putBatch(commits: readonly { readonly oid: string; readonly ordinal: number }[], run: DiffPostingsRun): Promise<void>;
  /** Records the refs the index now covers. */
  setState(state: HistoryIndexState): Promise<void>;
  /** Bytes the environment takes on disk. */
  sizeBytes(): number;
}

export interface HistoryIndexes {
  /** The repository's index, opened (and created) on first use. */
  of(repoId: number): HistoryIndex;
  /** Whether the repository has an index on disk. */
  exists(repoId: number): boolean;
  remove(repoId: number): Promise<void>;
  close(): Promise<void>;
}

const WHAT = 'updating the history index';
const NEXT_KEY = 'next';
const STATE_KEY = 'state';

export function openHistoryIndexes(dataDir: string): HistoryIndexes {
  const dir = join(dataDir, 'index', 'history');
  const opened = new Map<number, { env: RootDatabase; index: HistoryIndex }>();
  const pathOf = (repoId: number): string => join(dir, `${repoId}.mdb`);
  return {
    of(repoId) {
      let entry = opened.get(repoId);
      if (!entry) {
        mkdirSync(dir, { recursive: true });
        const env = openEnv(pathOf(repoId));
        entry = { env, index: historyIndex(env, pathOf(repoId), dir) };
        opened.set(repoId, entry);
      }
      return entry.index;
    },
    exists: (repoId) => opened.has(repoId) || statOrNull(pathOf(repoId)) !== null,
    async remove(repoId) {
      const entry = opened.get(repoId);
      opened.delete(repoId);
      if (entry) await entry.env.close();
      rmSync(pathOf(repoId), { force: true });
      rmSync(`${pathOf(repoId)}-lock`, { force: true });
    },
    async close() {
      const envs = [...opened.values()].map((e) => e.env);
      opened.clear();
      await Promise.all(envs.map((env) => env.close()));
    },
  };
}

function openEnv(path: string): RootDatabase {
  return open({ path, noSubdir: true, maxDbs: 4, ...WRITABLE });
}

function historyIndex(env: RootDatabase, path: string, dir: string): HistoryIndex {
  const meta: Database<unknown, string> = env.openDB({ name: 'meta', encoding: 'msgpack' });
  const commits: Database<number, string> = env.openDB({ name: 'commits', encoding: 'msgpack' });
  const lists: Database<Uint8Array, Buffer> = env.openDB({ name: 'postings', encoding: 'binary', keyEncoding: 'binary' });
  return {
    state: () => meta.get(STATE_KEY) as HistoryIndexState | undefined,
    nextOrdinal: () => (meta.get(NEXT_KEY) as number | undefined) ?? 0,
    ordinalOf: (oid) => commits.get(oid),
    postings(key) {
      const parts: Uint32Array[] = [];
      for (const { value } of lists.getRange({ start: listKey(key, 0), end: listKey(key + 1, 0) })) parts.push(decodePostings(value));
      if (parts.length === 1) return parts[0]!;
      const all = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const part of parts) {
        all.set(part, at);
        at += part.length;
      }
      return all;
    },
    async putBatch(batch, run) {
      if (batch.length === 0) return;
      const first = batch[0]!.ordinal;
      // A failed commit is worse than a refusal (lmdb/disk-space.ts): refuse while there is room.
      requireSpace(dir, lmdbBytes(run.bytes.length) + run.keys.length * 32 + batch.length * 64, WHAT);
      await committed(env.transaction(() => {
        let start = 0;
        run.keys.forEach((key, i) => {
          void lists.put(listKey(key, first), run.bytes.subarray(start, run.ends[i]!));
          start = run.ends[i]!;
        });
        for (const { oid, ordinal } of batch) void commits.put(oid, ordinal);
        void meta.put(NEXT_KEY, batch.at(-1)!.ordinal + 1);
      }), dir, WHAT);
    },
    async setState(state) {
      await committed(meta.put(STATE_KEY, state), dir, WHAT);
      await committed(env.flushed, dir, WHAT);
    },
    sizeBytes: () => statOrNull(path)?.size ?? 0,
  };
}

/** Big-endian key then batch: one key's lists sort together, oldest batch first. */
function listKey(key: number, batch: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeUInt32BE(key, 0);
  out.writeUInt32BE(batch, 4);
  return out;
}

function statOrNull(path: string): { size: number } | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
