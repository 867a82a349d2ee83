/**
 * Bare mirrors and the questions answered from refs alone: clone, fetch, default branch, refs,
 * revisions. Sources and paths arrive already validated by repos/; nothing here reads trees.
 */

import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { createError } from '../errors.js';
import { quoteInput, revisionProblem } from './input.js';
import { execGit, expectSuccess, runGit } from './run.js';

export interface GitRef {
  readonly kind: 'branch' | 'tag';
  /** Short name: `main`, `v1.2.0`. */
  readonly name: string;
  /** The object the ref finally points at; annotated tags are peeled. */
  readonly oid: string;
}

export interface MirrorOptions {
  readonly timeoutMs?: number;
}

const CLONE_TIMEOUT_MS = 60 * 60_000;
const FETCH_TIMEOUT_MS = 30 * 60_000;
const REF_TIMEOUT_MS = 20_000;
const MAX_REFS_BYTES = 256 * 1024 * 1024;
// Local sources are cloned over the file transport, which newer git refuses unless allowed.
const ALLOW_FILE = ['-c', 'protocol.file.allow=always'];
/**
 * Transports git may use for clone, fetch and ls-remote, whatever a source or a mirror's config
 * names: no `ext::` (runs commands), no `fd::` (reads descriptors), no other remote helper.
 */
const SAFE_TRANSPORTS = { GIT_ALLOW_PROTOCOL: 'file:git:http:https:ssh' };
// Branches and tags only: code-host extras such as refs/pull/* would multiply what we store.
const MIRROR_REFSPECS = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];

/** Clones `source` as a bare repository at `destDir` (which must not exist or be empty). */
export async function cloneMirror(source: string, destDir: string, options: MirrorOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? CLONE_TIMEOUT_MS;
  await runGit([...ALLOW_FILE, 'clone', '--bare', '--quiet', '--', source, destDir], { timeoutMs, env: SAFE_TRANSPORTS });
  // A bare clone records no fetch refspec, so later fetches would update nothing without these.
  const [heads, tags] = MIRROR_REFSPECS as [string, string];
  await runGit(['config', '--replace-all', 'remote.origin.fetch', heads], { gitDir: destDir });
  await runGit(['config', '--add', 'remote.origin.fetch', tags], { gitDir: destDir });
}

/** Brings the mirror's branches and tags up to date with its source, deleting what the source deleted. */
export async function fetchMirror(gitDir: string, options: MirrorOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  await runGit([...ALLOW_FILE, 'fetch', '--prune', '--quiet', 'origin'], { gitDir, timeoutMs, env: SAFE_TRANSPORTS });
  await followRemoteHead(gitDir);
}

/** Points HEAD where the source's HEAD points, since fetch never moves a bare repository's HEAD. */
async function followRemoteHead(gitDir: string): Promise<void> {
  const result = await execGit([...ALLOW_FILE, 'ls-remote', '--symref', 'origin', 'HEAD'], { gitDir, timeoutMs: REF_TIMEOUT_MS, env: SAFE_TRANSPORTS });
  const match = /^ref: (refs\/heads\/\S+)\tHEAD$/m.exec(result.stdout.toString('utf8'));
  // Best effort: the fetch itself succeeded, and a source that will not say keeps the old default.
  if (result.code !== 0 || match?.[1] === undefined) return;
  await runGit(['symbolic-ref', 'HEAD', match[1]], { gitDir });
}

/** True when `path` itself is a git repository (bare, or a work tree root); parents are not searched. */
export async function isGitRepository(path: string): Promise<boolean> {
  const dir = resolve(path);
  const info = await stat(dir).catch(() => null);
  if (info === null || !info.isDirectory()) return false;
  const result = await execGit(['rev-parse', '--git-dir'], {
    cwd: dir,
    env: { GIT_CEILING_DIRECTORIES: dirname(dir) },
    timeoutMs: REF_TIMEOUT_MS,
  });
  return result.code === 0;
}

/** Branches and tags, sorted by full ref name. */
export async function listRefs(gitDir: string): Promise<GitRef[]> {
  const format = '--format=%(refname)%00%(objectname)%00%(*objectname)';
  const out = await runGit(['for-each-ref', format, 'refs/heads', 'refs/tags'], { gitDir, maxBytes: MAX_REFS_BYTES });
  const refs: GitRef[] = [];
  for (const line of out.toString('utf8').split('\n')) {
    const [refName = '', oid = '', peeled = ''] = line.split('\0');
    if (refName.startsWith('refs/heads/')) refs.push({ kind: 'branch', name: refName.slice(11), oid });
    else if (refName.startsWith('refs/tags/')) refs.push({ kind: 'tag', name: refName.slice(10), oid: peeled || oid });
  }
  return refs;
}

/** The branch HEAD names; when HEAD is detached or dangling, `main`, then `master`, then the first branch. */
export async function defaultBranch(gitDir: string): Promise<string> {
  const head = await execGit(['symbolic-ref', '--quiet', 'HEAD'], { gitDir });
  const headRef = head.code === 0 ? head.stdout.toString('utf8').trim() : '';
  const headBranch = headRef.startsWith('refs/heads/') ? headRef.slice(11) : '';
  const branches = (await listRefs(gitDir)).filter((r) => r.kind === 'branch').map((r) => r.name);
  if (headBranch !== '' && (branches.includes(headBranch) || branches.length === 0)) return headBranch;
  return ['main', 'master'].find((b) => branches.includes(b)) ?? branches[0] ?? 'main';
}

/**
 * The commit a revision names (branch, tag, oid, `HEAD~2`, ...), as a full object id. A revision
 * input.ts refuses is not found, with the reason in details.problem.
 */
export async function resolveRevision(gitDir: string, rev: string): Promise<string> {
  const problem = revisionProblem(rev);
  const shown = problem === null ? rev : quoteInput(rev);
  const notFound = createError('REVISION_NOT_FOUND', `revision not found: ${shown}`, { rev, ...(problem === null ? {} : { problem }) });
  if (problem !== null) throw notFound;
  const args = ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`];
  const result = await execGit(args, { gitDir });
  // --verify --quiet exits 1 for "no such revision"; anything else means git itself failed.
  if (result.code === 1) throw notFound;
  return expectSuccess(args, result).toString('utf8').trim();
}

/** Resolves when `url` answers as a git remote within the timeout; GIT_FAILED otherwise. */
export async function probeRemote(url: string, options: MirrorOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? REF_TIMEOUT_MS;
  await runGit([...ALLOW_FILE, 'ls-remote', '--quiet', '--', url, 'HEAD'], { timeoutMs, maxBytes: 1024 * 1024, env: SAFE_TRANSPORTS });
}
