/**
 * The history index on disk: per repository one LMDB environment at
 * `<data>/index/history/<repo id>.mdb` holding the ordinal of every indexed commit, its diff record
 * as git printed it (deflated), the trigram postings of the changed lines (per batch, in groups of
 * neighbouring keys: posting-groups.ts) and the refs as last indexed. Each batch is one transaction, so a killed build keeps every
 * batch it finished. Storage only: no git.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { lmdbBytes, requireSpace } from '../lmdb/disk-space.js';
import { committed, WRITABLE } from '../lmdb/writes.js';
import { decodePostings } from '../postings.js';
import type { DiffPostingsRun } from './diff-postings.js';
import { findInGroup, packGroups } from './posting-groups.js';
import { deflateRecord, inflateRecord } from './record-codec.js';

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
  /** The commit's record as stored by putBatch, or undefined when the ordinal is not indexed. */
  record(ordinal: number): string | undefined;
  /** The commit's record still deflated (record-codec.ts inflates it), or undefined when the ordinal is not indexed: what a worker is handed. */
  deflatedRecord(ordinal: number): Uint8Array | undefined;
  /** Adds a batch of commits (ordinals from nextOrdinal() on, ascending), their records and postings atomically. */
  putBatch(commits: readonly IndexedCommit[], run: DiffPostingsRun): Promise<void>;
  /** Records the refs the index now covers. */
  setState(state: HistoryIndexState): Promise<void>;
  /** Bytes the environment takes on disk. */
  sizeBytes(): number;
}

export interface IndexedCommit {
  readonly oid: string;
  readonly ordinal: number;
  /** The commit with its diff as git printed it: stored deflated, given back as is. */
  readonly record: string;
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
const BATCHES_KEY = 'batches';
const FORMAT_KEY = 'format';
/** Bumped when the layout changes: an index in another format is emptied and rebuilt by the next update. */
const FORMAT = 3;

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
  const records: Database<Uint8Array, number> = env.openDB({ name: 'records', encoding: 'binary', keyEncoding: 'uint32' });
  if (meta.get(FORMAT_KEY) !== FORMAT) {
    env.transactionSync(() => {
      for (const db of [meta, commits, lists, records]) db.clearSync();
      void meta.put(FORMAT_KEY, FORMAT);
    });
  }
  const batches = (): readonly number[] => (meta.get(BATCHES_KEY) as number[] | undefined) ?? [];
  return {
    state: () => meta.get(STATE_KEY) as HistoryIndexState | undefined,
    nextOrdinal: () => (meta.get(NEXT_KEY) as number | undefined) ?? 0,
    ordinalOf: (oid) => commits.get(oid),
    postings(key) {
      const parts: Uint32Array[] = [];
      for (const batch of batches()) {
        for (const { key: groupKey, value } of lists.getRange({ start: listKey(batch, key), end: batchPrefix(batch), reverse: true, limit: 1 })) {
          const at = findInGroup(value, groupKey.readUInt32BE(4), key);
          if (at !== null) parts.push(decodePostings(value, at[0], at[1]));
        }
      }
      if (parts.length === 1) return parts[0]!;
      const all = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const part of parts) {
        all.set(part, at);
        at += part.length;
      }
      return all;
    },
    record(ordinal) {
      const value = records.getBinary(ordinal);
      return value === undefined ? undefined : inflateRecord(value);
    },
    deflatedRecord: (ordinal) => records.getBinary(ordinal),
    async putBatch(batch, run) {
      if (batch.length === 0) return;
      const first = batch[0]!.ordinal;
      const deflated = batch.map((commit) => deflateRecord(commit.record));
      const recordBytes = deflated.reduce((n, d) => n + d.length, 0);
      // A failed commit is worse than a refusal (lmdb/disk-space.ts): refuse while there is room.
      requireSpace(dir, lmdbBytes(run.bytes.length + recordBytes) + run.keys.length * 32 + batch.length * 64, WHAT);
      const known = batches();
      const groups = packGroups(run);
      await committed(env.transaction(() => {
        for (const group of groups) void lists.put(listKey(first, group.firstKey), group.bytes);
        batch.forEach(({ oid, ordinal }, i) => {
          void commits.put(oid, ordinal);
          void records.put(ordinal, deflated[i]!);
        });
        void meta.put(BATCHES_KEY, [...known, first]);
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

/** Sorts before every key of the batch: the lower end of a backwards search within it. */
function batchPrefix(batch: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(batch, 0);
  return out;
}

/** Big-endian batch then a group's first key: a batch's groups are appended in key order, so pages fill densely. */
function listKey(batch: number, key: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeUInt32BE(batch, 0);
  out.writeUInt32BE(key, 4);
  return out;
}

function statOrNull(path: string): { size: number } | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
