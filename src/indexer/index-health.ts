/**
 * Whether a repository's live index can keep serving as it is: its segments pass the open-time
 * checks (seal, sizes, column CRCs, no damage marker) and it indexes the mirror's current HEAD.
 * Reads only; the index run (index-repository.ts) does the rebuilding.
 */
import { join } from 'node:path';
import { errorMessage, isQuarryError } from '../errors.js';
import { defaultBranch, resolveRevision } from '../git/mirror.js';
import { FORMAT_VERSION } from '../index/format.js';
import { segmentsDir, type Catalog } from '../index/lmdb/catalog.js';
import { openSegmentReader } from '../index/lmdb/segment-reader.js';
import { readSeal } from '../index/lmdb/segment-seal.js';
import type { Manifest } from '../index/manifest.js';

/**
 * Why each of the manifest's segments cannot serve; empty when all can. `sealOnly` checks the seal,
 * file sizes and damage marks without opening the segments (cheap enough for every sync pass;
 * readers mark what opening finds).
 */
export async function segmentProblems(dataDir: string, manifest: Manifest, options: { readonly sealOnly?: boolean } = {}): Promise<string[]> {
  const problems: string[] = [];
  for (const segment of manifest.segments) {
    const dir = join(segmentsDir(dataDir), segment.id);
    try {
      if (options.sealOnly) readSeal(dir);
      else await openSegmentReader(dir).close();
    } catch (err) {
      const reason = isQuarryError(err, 'INDEX_CORRUPT') ? err.details['reason'] : undefined;
      problems.push(typeof reason === 'string' ? `segment ${segment.id} is damaged: ${reason}` : errorMessage(err));
    }
  }
  return problems;
}

/**
 * Why the repository should be indexed now although its refs did not move (never indexed, an
 * older format, a damaged segment, a run that failed or was killed before its swap, symbols still
 * pending after a text-only or killed run), or null.
 */
export async function reasonToIndex(dataDir: string, catalog: Catalog, repo: { readonly name: string; readonly id: number; readonly gitDir: string }, symbols = true): Promise<string | null> {
  const manifest = catalog.get(repo.name);
  if (!manifest) return 'not indexed yet';
  if (manifest.formatVersion !== FORMAT_VERSION || manifest.repoId !== repo.id) return 'the index has an older format';
  const [problem] = await segmentProblems(dataDir, manifest, { sealOnly: true });
  if (problem !== undefined) return problem;
  const head = await resolveRevision(repo.gitDir, await defaultBranch(repo.gitDir));
  if (head !== manifest.commit) return `the index is at ${manifest.commit.slice(0, 12)}, the mirror at ${head.slice(0, 12)}`;
  return symbols && manifest.symbolsPending ? 'its symbol tables are not extracted yet (a text-only or interrupted run)' : null;
}
