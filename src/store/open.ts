/**
 * The instance store: one LMDB environment at `<data>/store` with a named sub-database per kind
 * of record. Only store/ and index/ may import lmdb; other layers go through store functions.
 */

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { RepoRecord } from './repos.js';

export interface Store {
  readonly path: string;
  readonly root: RootDatabase;
  /** Repository registry, keyed by repository name. */
  readonly repos: Database<RepoRecord, string>;
  /** Counters and other single values, keyed by a fixed name. */
  readonly meta: Database<unknown, string>;
  close(): Promise<void>;
}

// Room for the sub-databases later stores add (accounts, tokens, config, ...).
const MAX_SUB_DATABASES = 64;

export function openStore(dataDir: string): Store {
  const path = join(dataDir, 'store');
  mkdirSync(path, { recursive: true });
  const root = open({ path, maxDbs: MAX_SUB_DATABASES });
  // JSON keeps records readable by any tool and free of msgpack's shared-structure bookkeeping.
  const repos = root.openDB<RepoRecord, string>('repos', { encoding: 'json' });
  const meta = root.openDB<unknown, string>('meta', { encoding: 'json' });
  return {
    path,
    root,
    repos,
    meta,
    close: () => root.close(),
  };
}
