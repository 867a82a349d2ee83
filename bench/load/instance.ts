/**
 * The instance the mixed load runs against: mirrors of the real repositories in ../shared/corpora
 * (beside the project, never copied into it), indexed with the CLI (text and symbols), callers with
 * their own tokens, and the per-caller limits. Writes only into the scratch directory it is given.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { openStore } from '../../src/store/open.js';
import { getSiteConfig, updateSiteConfig } from '../../src/store/site-config.js';
import { createAccessToken } from '../../src/store/tokens.js';
import { createUser } from '../../src/store/users.js';
import { QUARRY_BIN, REPO_ROOT } from '../paths.js';
import { collect, timed } from '../tools/process.js';

export interface Corpus {
  readonly repo: string;
  readonly bundle: string;
}

export const CORPORA: readonly Corpus[] = [
  { repo: 'github.com/psf/requests', bundle: 'requests.bundle' },
  { repo: 'github.com/gin-gonic/gin', bundle: 'gin.bundle' },
  { repo: 'github.com/koajs/koa', bundle: 'koa.bundle' },
  { repo: 'github.com/BurntSushi/ripgrep', bundle: 'ripgrep.bundle' },
];

/**
 * Per-caller limits for the run (site settings). Every ordinary caller holds exactly
 * `concurrentRequests` connections, so it never queues; the hostile caller holds more, so two of its
 * requests run, two wait, and the rest are refused with 429 at once.
 */
export const CALLER_LIMITS = {
  'rateLimits.concurrentRequests': 2,
  'rateLimits.queuedRequests': 2,
  'rateLimits.queueTimeoutSeconds': 10,
  // Twice the default: an ordinary caller at 2 connections stays under 200 requests/s unless the whole
  // ordinary load passes 28 × 200 = 5,600 requests/s, far above what 2 cores serve for this mix.
  'rateLimits.requestsPerMinute': 12_000,
} as const;

/** Connections per ordinary caller: its concurrency limit, so it is never queued or refused. */
export const CONNECTIONS_PER_CALLER = CALLER_LIMITS['rateLimits.concurrentRequests'];

/** $QUARRY_BENCH_CORPORA, else the first `shared/corpora` beside the checkout or one of its parents. */
export function findCorpora(env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env['QUARRY_BENCH_CORPORA'];
  if (configured) return existsSync(join(configured, CORPORA[0]!.bundle)) ? resolve(configured) : null;
  for (let dir = resolve(REPO_ROOT, '..'); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'corpora');
    if (CORPORA.every((c) => existsSync(join(candidate, c.bundle)))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

export interface IndexedInstance {
  readonly dataDir: string;
  /** `quarry index` wall seconds and peak RSS for all four repositories. */
  readonly indexSeconds: number;
  readonly indexPeakRssKiB: number;
}

/** Mirrors every bundle into `workDir` and indexes them into `workDir/data`. */
export async function buildInstance(corporaDir: string, workDir: string): Promise<IndexedInstance> {
  const dataDir = join(workDir, 'data');
  for (const corpus of CORPORA) {
    const mirror = join(workDir, 'mirrors', corpus.bundle.replace(/\.bundle$/, '.git'));
    await collect('git', ['clone', '-q', '--mirror', join(corporaDir, corpus.bundle), mirror]);
    await collect(process.execPath, [QUARRY_BIN, 'repos', 'add', corpus.repo, mirror, '--data', dataDir]);
  }
  const index = await timed(process.execPath, [QUARRY_BIN, 'index', '--no-fetch', '--threads', '2', '--data', dataDir]);
  return { dataDir, indexSeconds: index.wallSeconds, indexPeakRssKiB: index.peakRssKiB };
}

export interface Callers {
  readonly ordinary: readonly string[];
  readonly hostile: string;
  /** A site admin's token, for /metrics only. */
  readonly admin: string;
}

/** Users with one `user:all` token each (MCP access comes with the default role), and the limits. */
export async function createCallers(dataDir: string, ordinaryCount: number): Promise<Callers> {
  const store = openStore(dataDir);
  try {
    const tokenFor = (username: string, siteAdmin = false): string => {
      const user = createUser(store, { username, siteAdmin });
      return createAccessToken(store, { userId: user.id, creatorId: user.id, scopes: ['user:all'], note: 'mixed load bench' }).token;
    };
    const admin = tokenFor('bench-admin', true);
    const ordinary = Array.from({ length: ordinaryCount }, (_, i) => tokenFor(`agent-${i + 1}`));
    const hostile = tokenFor('hostile');
    updateSiteConfig(store, getSiteConfig(store).id, JSON.stringify(CALLER_LIMITS));
    return { ordinary, hostile, admin };
  } finally {
    await store.close();
  }
}
