/**
 * The order in which one `quarry index` run takes many repositories: smallest estimated size
 * first, so small repositories are not stuck behind a large one. The estimate is the live index's
 * bytes, else the mirror's git objects on disk. Orders only; the command runs the work.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../index/lmdb/catalog.js';

export interface QueuedRepo {
  readonly name: string;
  readonly gitDir: string;
}

export function smallestFirst<R extends QueuedRepo>(repos: readonly R[], catalog: Pick<Catalog, 'get'>): R[] {
  const estimate = new Map(repos.map((r) => [r.name, catalog.get(r.name)?.bytes ?? bytesUnder(join(r.gitDir, 'objects'))]));
  return [...repos].sort((a, b) => estimate.get(a.name)! - estimate.get(b.name)! || (a.name < b.name ? -1 : 1));
}

function bytesUnder(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}
