/**
 * The repository registry: adding, removing, listing and fetching repositories, each a record in
 * the store plus a bare mirror under `<data>/mirrors`. Failed additions leave nothing behind; a
 * mirror found missing or broken at sync is cloned again from its source.
 */

import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join, posix, relative, resolve, isAbsolute } from 'node:path';
import { createError, errorMessage } from '../errors.js';
import { cloneMirror, defaultBranch, fetchMirror, isGitRepository, listRefs } from '../git/mirror.js';
import type { RepoRecord, Store } from '../store/records.js';
import { addRepo, getRepo, listRepos, removeRepo, reserveRepoId, updateRepo } from '../store/repos.js';
import { validateRepoName } from './names.js';
import { checkSource } from './source.js';

export interface RepoContext {
  readonly dataDir: string;
  readonly store: Store;
}

export interface SyncResult {
  readonly repo: RepoRecord;
  /** True when any branch or tag moved, appeared or disappeared. */
  readonly changed: boolean;
}

const MIRRORS_DIR = 'mirrors';
const STAGING_DIR = 'tmp';

/** Absolute path of a repository's bare mirror. */
export function mirrorDir(ctx: RepoContext, repo: RepoRecord): string {
  const dir = resolve(ctx.dataDir, repo.mirrorPath);
  const fromMirrors = relative(resolve(ctx.dataDir, MIRRORS_DIR), dir);
  // The path comes from the store; never let a damaged record aim git or rm outside the mirrors.
  if (fromMirrors === '' || fromMirrors.startsWith('..') || isAbsolute(fromMirrors)) {
    throw createError('INTERNAL', `mirror path outside the data directory: ${repo.mirrorPath}`, { name: repo.name });
  }
  return dir;
}

function notFound(name: string): never {
  throw createError('REPO_NOT_FOUND', `no such repository: ${name}`, { name });
}

/** The one way from a repository's name to its bare mirror: REPO_NOT_FOUND when no such repository is registered. */
export function gitDirOf(ctx: RepoContext, name: string): string {
  return mirrorDir(ctx, getRepo(ctx.store, name) ?? notFound(name));
}

/**
 * Registers `name` with a bare mirror of `source`. The mirror is cloned aside and renamed into
 * place, and the record is written only once the mirror is complete.
 */
export async function addRepository(ctx: RepoContext, name: string, source: string): Promise<RepoRecord> {
  validateRepoName(name);
  const duplicate = (): never => {
    throw createError('REPO_EXISTS', `repository already exists: ${name}`, { name });
  };
  if (getRepo(ctx.store, name) !== undefined) duplicate();
  const cloneFrom = await checkSource(source);

  const id = reserveRepoId(ctx.store);
  const mirrorPath = posix.join(MIRRORS_DIR, `${id}.git`);
  const finalDir = join(ctx.dataDir, mirrorPath);
  const branch = await cloneInto(ctx, cloneFrom, finalDir, `clone-${id}-`);

  const now = new Date().toISOString();
  const record: RepoRecord = {
    id,
    name,
    source: cloneFrom,
    mirrorPath,
    addedAt: now,
    lastFetchedAt: now,
    defaultBranch: branch,
    fork: false,
    archived: false,
  };
  try {
    return addRepo(ctx.store, record);
  } catch (err) {
    // Someone registered the same name while we cloned: their record stands, our mirror goes.
    await rm(finalDir, { recursive: true, force: true });
    throw err;
  }
}

/** Unregisters `name` first, then deletes its mirror, so no record ever points at a missing mirror. */
export async function removeRepository(ctx: RepoContext, name: string): Promise<RepoRecord> {
  const existing = getRepo(ctx.store, name) ?? notFound(name);
  const dir = mirrorDir(ctx, existing);
  const removed = removeRepo(ctx.store, name) ?? notFound(name);
  await rm(dir, { recursive: true, force: true });
  return removed;
}

export function listRepositories(ctx: RepoContext): RepoRecord[] {
  return listRepos(ctx.store);
}

async function refsFingerprint(gitDir: string): Promise<string> {
  return (await listRefs(gitDir)).map((r) => `${r.kind}:${r.name}:${r.oid}`).join('\n');
}

/**
 * Clones `source` aside and renames it to `finalDir`, replacing whatever is there; returns the
 * default branch. The staging directory goes either way.
 */
async function cloneInto(ctx: RepoContext, source: string, finalDir: string, stagingPrefix: string): Promise<string> {
  await mkdir(join(ctx.dataDir, MIRRORS_DIR), { recursive: true });
  await mkdir(join(ctx.dataDir, STAGING_DIR), { recursive: true });
  const staging = await mkdtemp(join(ctx.dataDir, STAGING_DIR, stagingPrefix));
  try {
    const cloneDir = join(staging, 'mirror.git');
    await cloneMirror(source, cloneDir);
    const branch = await defaultBranch(cloneDir);
    // Whatever held the place (a broken mirror) moves into staging first and goes with it.
    await rename(finalDir, join(staging, 'replaced')).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    await rename(cloneDir, finalDir);
    return branch;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * A mirror that is missing or no longer a git repository is cloned again from the source; GIT_FAILED
 * saying so when the source cannot be cloned either.
 */
async function restoreMirror(ctx: RepoContext, record: RepoRecord, gitDir: string): Promise<void> {
  try {
    await cloneInto(ctx, record.source, gitDir, `reclone-${record.id}-`);
  } catch (err) {
    throw createError('GIT_FAILED', `the mirror is missing or not a git repository, and cloning it again failed: ${errorMessage(err)}`, { name: record.name });
  }
}

/** Fetches the mirror from its source; the outcome is recorded on the repository either way. */
export async function syncRepository(ctx: RepoContext, name: string): Promise<SyncResult> {
  const record = getRepo(ctx.store, name) ?? notFound(name);
  try {
    const gitDir = mirrorDir(ctx, record);
    // A mirror git cannot read (or whose objects failed the last index run) is cloned again.
    let restored = !(await isGitRepository(gitDir)) || isMirrorDamage(record.lastIndexError ?? '');
    if (restored) await restoreMirror(ctx, record, gitDir);
    let before = '';
    try {
      if (!restored) before = await refsFingerprint(gitDir);
      await fetchMirror(gitDir);
    } catch (err) {
      if (restored || !isMirrorDamage(errorMessage(err))) throw err;
      await restoreMirror(ctx, record, gitDir);
      restored = true;
      await fetchMirror(gitDir);
    }
    const after = await refsFingerprint(gitDir);
    const branch = await defaultBranch(gitDir);
    const patch = { lastFetchedAt: new Date().toISOString(), lastFetchError: undefined, defaultBranch: branch };
    const repo = updateRepo(ctx.store, name, patch) ?? notFound(name);
    return { repo, changed: restored || before !== after };
  } catch (err) {
    updateRepo(ctx.store, name, { lastFetchError: errorMessage(err) });
    throw err;
  }
}

/**
 * Git's words for objects or refs damaged on local disk (not a source that cannot be reached):
 * cloning the mirror again is the repair.
 */
const MIRROR_DAMAGE = /inflate: data stream error|object file .* is (empty|corrupt)|loose object .* is corrupt|packfile .* (cannot be accessed|is corrupt)|bad object [0-9a-f]{40}|unable to read [0-9a-f]{40}|not a valid object name|fatal: bad tree object|missing (blob|tree|commit) [0-9a-f]{40}|object [0-9a-f]{40} not found|index-pack failed|unknown object type/i;

function isMirrorDamage(message: string): boolean {
  return MIRROR_DAMAGE.test(message);
}

/** Records how an index run of `name` ended (null: it succeeded); writes only when that changes. */
export function recordIndexOutcome(ctx: RepoContext, name: string, err: unknown): void {
  const message = err === null ? undefined : errorMessage(err);
  if (getRepo(ctx.store, name)?.lastIndexError !== message) updateRepo(ctx.store, name, { lastIndexError: message });
}
