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
  // Every search lists the catalog, so list() goes through the same cache.
  const decoded = new Map<string, { readonly bytes: Buffer; readonly manifest: Manifest }>();
  const get = (repo: string): Manifest | undefined => {
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
  };
  return {
    get,
    list() {
      const listed: Manifest[] = [];
      const present = new Set<string>();
      for (const repo of manifests.getKeys({})) {
        const manifest = get(repo);
        if (manifest === undefined) continue;
        listed.push(manifest);
        present.add(repo);
      }
      for (const repo of decoded.keys()) if (!present.has(repo)) decoded.delete(repo);
      return listed;
    },
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
