/**
 * Trees through `ls-tree`: a commit's files and the files changed between two commits as blob
 * entries (symlinks and submodules counted, never followed), one directory's entries, one file.
 */

import { createError } from '../errors.js';
import { repoPathProblem } from './input.js';
import { isObjectId } from './oid.js';
import { runGit } from './run.js';

export interface TreeEntry {
  readonly path: string;
  readonly blobOid: string;
  readonly size: number;
  /** Octal mode as git prints it: `100644` or `100755`. */
  readonly mode: string;
}

export interface TreeListing {
  readonly entries: TreeEntry[];
  readonly skipped: { readonly submodules: number; readonly symlinks: number };
}

/** An entry of a directory: a blob, a tree, or a commit (a submodule). */
export interface TreeObject {
  /** From the repository root. */
  readonly path: string;
  readonly type: string;
  readonly oid: string;
}

export interface TreeDiff {
  readonly added: TreeEntry[];
  readonly modified: TreeEntry[];
  readonly deleted: string[];
}

const MAX_TREE_BYTES = 512 * 1024 * 1024;
const TREE_TIMEOUT_MS = 5 * 60_000;
const SUBMODULE_MODE = '160000';
const SYMLINK_MODE = '120000';

function isFileMode(mode: string): boolean {
  return mode === '100644' || mode === '100755';
}

function checkCommit(commit: string): void {
  if (commit === '' || commit.startsWith('-')) {
    throw createError('REVISION_NOT_FOUND', `revision not found: ${commit}`, { rev: commit });
  }
}

/** Every regular file in the commit's tree, recursively, in git's path order. */
export async function listTree(gitDir: string, commit: string): Promise<TreeListing> {
  checkCommit(commit);
  const out = await runGit(['ls-tree', '-r', '-z', '--long', '--full-tree', '--end-of-options', commit], {
    gitDir,
    maxBytes: MAX_TREE_BYTES,
    timeoutMs: TREE_TIMEOUT_MS,
  });
  const entries: TreeEntry[] = [];
  let submodules = 0;
  let symlinks = 0;
  for (const { mode, oid, size, path } of lsTreeRecords(out)) {
    if (mode === SUBMODULE_MODE) submodules++;
    else if (mode === SYMLINK_MODE) symlinks++;
    else if (isFileMode(mode)) entries.push({ path, blobOid: oid, size: Number(size), mode });
  }
  return { entries, skipped: { submodules, symlinks } };
}

/**
 * The entries of the directory at `path` ('' is the root), recursively with `recursive` (trees
 * included); null when the path is no directory in the commit.
 */
export async function listDirectory(gitDir: string, commit: string, path: string, recursive: boolean): Promise<TreeObject[] | null> {
  const clean = trimSlashes(path);
  if (clean !== '') {
    const entry = await treeEntry(gitDir, commit, clean);
    if (!entry || entry.type !== 'tree') return null;
  }
  const spec = clean === '' ? commit : `${commit}:${clean}`;
  const out = await runGit(['ls-tree', '-z', ...(recursive ? ['-r', '-t'] : []), spec], { gitDir });
  return lsTreeRecords(out).map(({ type, oid, path: name }) => ({ path: clean === '' ? name : `${clean}/${name}`, type, oid }));
}

/** The bytes of the file at `path` in the commit, refused past maxBytes; null when the path is no file there. */
export async function readFileAt(gitDir: string, commit: string, path: string, maxBytes: number): Promise<Buffer | null> {
  const entry = await treeEntry(gitDir, commit, path);
  if (!entry || entry.type !== 'blob') return null;
  return runGit(['cat-file', 'blob', entry.oid], { gitDir, maxBytes });
}

async function treeEntry(gitDir: string, commit: string, path: string): Promise<TreeObject | null> {
  const clean = trimSlashes(path);
  // A path no tree can hold names nothing, and must not reach git (`..` leaves the repository).
  if (clean === '' || repoPathProblem(clean) !== null) return null;
  const out = await runGit(['ls-tree', '-z', commit, '--', clean], { gitDir });
  const [entry] = lsTreeRecords(out);
  return entry && entry.path === clean ? entry : null;
}

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

interface LsTreeRecord extends TreeObject {
  readonly mode: string;
  /** Only with `--long`; padded there, so fields are split on runs of spaces. */
  readonly size: string;
}

/** `ls-tree -z` output: `<mode> SP <type> SP <oid> [SP <size>] TAB <path> NUL` per record. */
function lsTreeRecords(out: Buffer): LsTreeRecord[] {
  const records: LsTreeRecord[] = [];
  for (const record of out.toString('utf8').split('\0')) {
    const tab = record.indexOf('\t');
    if (tab === -1) continue;
    const [mode = '', type = '', oid = '', size = ''] = record.slice(0, tab).split(' ').filter((f) => f !== '');
    records.push({ mode, type, oid, size, path: record.slice(tab + 1) });
  }
  return records;
}

interface RawChange {
  readonly path: string;
  readonly wasFile: boolean;
  readonly isFile: boolean;
  readonly newMode: string;
  readonly newOid: string;
}

/** Files added, modified and deleted from one commit to another; a rename is a delete plus an add. */
export async function diffTrees(gitDir: string, fromCommit: string, toCommit: string): Promise<TreeDiff> {
  checkCommit(fromCommit);
  checkCommit(toCommit);
  const args = ['diff-tree', '-r', '-z', '--no-renames', '--no-commit-id', '--end-of-options', fromCommit, toCommit];
  const out = await runGit(args, { gitDir, maxBytes: MAX_TREE_BYTES, timeoutMs: TREE_TIMEOUT_MS });
  const changes = parseRawDiff(out.toString('utf8'));
  const sizes = await blobSizes(gitDir, changes.filter((c) => c.isFile).map((c) => c.newOid));
  const diff: TreeDiff = { added: [], modified: [], deleted: [] };
  for (const change of changes) {
    const entry = (): TreeEntry => ({
      path: change.path,
      blobOid: change.newOid,
      size: sizes.get(change.newOid) ?? 0,
      mode: change.newMode,
    });
    // Classify by mode, not status letter: a file that became a symlink has left the index.
    if (change.wasFile && change.isFile) diff.modified.push(entry());
    else if (change.isFile) diff.added.push(entry());
    else if (change.wasFile) diff.deleted.push(change.path);
  }
  return diff;
}

/** Raw diff with -z: ":<old mode> <new mode> <old oid> <new oid> <status>\0<path>\0" per change. */
function parseRawDiff(raw: string): RawChange[] {
  const fields = raw.split('\0');
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i] ?? '';
    if (!meta.startsWith(':')) continue;
    const [oldMode = '', newMode = '', , newOid = ''] = meta.slice(1).split(' ');
    changes.push({ path: fields[i + 1] ?? '', wasFile: isFileMode(oldMode), isFile: isFileMode(newMode), newMode, newOid });
  }
  return changes;
}

/** Sizes of many blobs in one `cat-file --batch-check` run. */
export async function blobSizes(gitDir: string, oids: readonly string[]): Promise<Map<string, number>> {
  const unique = [...new Set(oids)];
  const sizes = new Map<string, number>();
  if (unique.length === 0) return sizes;
  const bad = unique.find((oid) => !isObjectId(oid));
  if (bad !== undefined) throw createError('GIT_FAILED', `invalid object id: ${bad}`, { oid: bad });
  const out = await runGit(['cat-file', '--batch-check=%(objectname) %(objectsize)'], {
    gitDir,
    input: `${unique.join('\n')}\n`,
    timeoutMs: TREE_TIMEOUT_MS,
  });
  for (const line of out.toString('utf8').split('\n')) {
    const [oid = '', size = ''] = line.split(' ');
    if (size === 'missing') throw createError('GIT_FAILED', `object not found: ${oid}`, { oid });
    if (oid !== '') sizes.set(oid, Number(size));
  }
  return sizes;
}
