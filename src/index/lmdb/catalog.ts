/**
 * The index catalog: repository name → Manifest, in one LMDB environment shared by the indexer
 * (writer) and every search worker and process (readers). A manifest swap is one transaction.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { Manifest } from '../manifest.js';
import { requireSpace } from './disk-space.js';
import { committed, WRITABLE } from './writes.js';

export interface Catalog {
  get(repo: string): Manifest | undefined;
  list(): Manifest[];
  put(manifest: Manifest): Promise<void>;
  remove(repo: string): Promise<void>;
  close(): Promise<void>;
}

export function indexRoot(dataDir: string): string {
  return join(dataDir, 'index');
}

export function segmentsDir(dataDir: string): string {
  return join(indexRoot(dataDir), 'segments');
}

export function openCatalog(dataDir: string, options: { readOnly?: boolean } = {}): Catalog {
  mkdirSync(segmentsDir(dataDir), { recursive: true });
  const env: RootDatabase = open({ path: join(indexRoot(dataDir), 'catalog.mdb'), noSubdir: true, maxDbs: 2, readOnly: options.readOnly ?? false, ...WRITABLE });
  const manifests: Database<Manifest, string> = env.openDB({ name: 'manifests', encoding: 'msgpack' });
  // Decoding a manifest costs far more than reading it, and navigation asks per file: the stored
  // bytes, compared on every get, say when another process or a put has changed it.
  const decoded = new Map<string, { readonly bytes: Buffer; readonly manifest: Manifest }>();
  return {
    get(repo) {
      const bytes = manifests.getBinary(repo);
      if (bytes === undefined) {
        decoded.delete(repo);
        return undefined;
      }
      const known = decoded.get(repo);
      if (known !== undefined && known.bytes.equals(bytes)) return known.manifest;
      const manifest = manifests.get(repo);
      if (manifest !== undefined) decoded.set(repo, { bytes, manifest });
      return manifest;
    },
    list: () => [...manifests.getRange({})].map((e) => e.value),
    async put(manifest) {
      // A failed commit is worse than a refusal (disk-space.ts): refuse while there is room.
      requireSpace(indexRoot(dataDir), manifest.skipped.length * 64 + manifest.segments.length * 256, 'swapping in the new index');
      await committed(manifests.put(manifest.repo, manifest), indexRoot(dataDir), 'swapping in the new index');
      await committed(env.flushed, indexRoot(dataDir), 'swapping in the new index');
    },
    async remove(repo) {
      await committed(manifests.remove(repo), indexRoot(dataDir), 'removing an index');
      await committed(env.flushed, indexRoot(dataDir), 'removing an index');
    },
    close: () => env.close(),
  };
}
