/**
 * The repository registry: adding, removing, listing and fetching repositories, each a record in
 * the store plus a bare mirror under `<data>/mirrors`. Failed additions leave nothing behind.
 */

import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join, posix, relative, resolve, isAbsolute } from 'node:path';
import { createError, errorMessage } from '../errors.js';
import { cloneMirror, defaultBranch, fetchMirror, listRefs } from '../git/mirror.js';
import type { Store } from '../store/open.js';
import { addRepo, getRepo, listRepos, removeRepo, reserveRepoId, updateRepo, type RepoRecord } from '../store/repos.js';
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
  await mkdir(join(ctx.dataDir, MIRRORS_DIR), { recursive: true });
  await mkdir(join(ctx.dataDir, STAGING_DIR), { recursive: true });
  const staging = await mkdtemp(join(ctx.dataDir, STAGING_DIR, `clone-${id}-`));
  let branch: string;
  try {
    const cloneDir = join(staging, 'mirror.git');
    await cloneMirror(cloneFrom, cloneDir);
    branch = await defaultBranch(cloneDir);
    await rename(cloneDir, finalDir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }

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

/** Fetches the mirror from its source; the outcome is recorded on the repository either way. */
export async function syncRepository(ctx: RepoContext, name: string): Promise<SyncResult> {
  const record = getRepo(ctx.store, name) ?? notFound(name);
  try {
    const gitDir = mirrorDir(ctx, record);
    const before = await refsFingerprint(gitDir);
    await fetchMirror(gitDir);
    const after = await refsFingerprint(gitDir);
    const branch = await defaultBranch(gitDir);
    const patch = { lastFetchedAt: new Date().toISOString(), lastFetchError: undefined, defaultBranch: branch };
    const repo = updateRepo(ctx.store, name, patch) ?? notFound(name);
    return { repo, changed: before !== after };
  } catch (err) {
    updateRepo(ctx.store, name, { lastFetchError: errorMessage(err) });
    throw err;
  }
}
