/**
 * The benchmark corpus: Linux 6.1 from Debian's linux-source-6.1 tarball, as an extracted worktree
 * (for rg and cindex) and a bare repository holding one reproducible commit of it (for Quarry).
 * Creates what is missing; installing the Debian package is scripts/bench's job, not this file's.
 */
import { execFileSync, type ExecFileSyncOptionsWithStringEncoding } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.js';

export const TARBALL = '/usr/src/linux-source-6.1.tar.xz';
const TOP = 'linux-source-6.1';
/** The quick corpus: two directories of the kernel, about 1,000 files. */
const QUICK_DIRS = ['kernel', 'mm'];
/** Fixed identity and dates make the commit id depend on the tree alone. */
const COMMIT_DATE = '2022-12-11T00:00:00+0000';
const GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Quarry bench',
  GIT_AUTHOR_EMAIL: 'bench@quarry.invalid',
  GIT_AUTHOR_DATE: COMMIT_DATE,
  GIT_COMMITTER_NAME: 'Quarry bench',
  GIT_COMMITTER_EMAIL: 'bench@quarry.invalid',
  GIT_COMMITTER_DATE: COMMIT_DATE,
};

export interface Corpus {
  readonly quick: boolean;
  /** Quarry's name for the repository. */
  readonly repoName: string;
  readonly worktree: string;
  readonly gitDir: string;
  readonly commit: string;
  /** Regular files, symlinks and executables in the commit. */
  readonly gitEntries: number;
}

/** `$QUARRY_BENCH_CORPUS`, else bench/corpus in the checkout (gitignored). */
export function corpusRoot(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env['QUARRY_BENCH_CORPUS']?.trim() || join(REPO_ROOT, 'bench', 'corpus');
  mkdirSync(chosen, { recursive: true });
  return realpathSync(chosen);
}

function git(gitDir: string, args: readonly string[], workTree?: string): string {
  const scope = workTree === undefined ? [`--git-dir=${gitDir}`] : [`--git-dir=${gitDir}`, `--work-tree=${workTree}`];
  // No background auto-gc: it would outlive this process and rewrite objects while Quarry clones them.
  const options: ExecFileSyncOptionsWithStringEncoding = { env: GIT_ENV, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] };
  return execFileSync('git', ['-c', 'gc.auto=0', ...scope, ...args], options).trim();
}

function extract(root: string, target: string, members: readonly string[]): void {
  if (!existsSync(TARBALL)) throw new Error(`${TARBALL} is missing: install Debian's linux-source-6.1 (scripts/bench does)`);
  const staging = join(root, `.extract-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
  console.error(`corpus: extracting ${members.length ? members.join(' ') : TOP} from ${TARBALL}`);
  execFileSync('tar', ['-xJf', TARBALL, '-C', staging, ...members], { stdio: 'inherit' });
  renameSync(join(staging, TOP), target);
  rmSync(staging, { recursive: true, force: true });
}

function fullWorktree(root: string): string {
  const dir = join(root, TOP);
  if (!existsSync(dir)) extract(root, dir, []);
  return dir;
}

function quickWorktree(root: string): string {
  const dir = join(root, 'linux-quick-6.1');
  if (existsSync(dir)) return dir;
  const full = join(root, TOP);
  if (!existsSync(full)) {
    extract(root, dir, QUICK_DIRS.map((d) => `${TOP}/${d}`));
    return dir;
  }
  const staging = `${dir}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  for (const d of QUICK_DIRS) cpSync(join(full, d), join(staging, d), { recursive: true, verbatimSymlinks: true });
  renameSync(staging, dir);
  return dir;
}

function headCommit(gitDir: string): string | null {
  if (!existsSync(gitDir)) return null;
  try {
    return git(gitDir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  } catch {
    return null;
  }
}

/** Commits the whole worktree into a new bare repository, built aside and renamed into place. */
function commitWorktree(worktree: string, gitDir: string): void {
  const staging = `${gitDir}.tmp`;
  rmSync(gitDir, { recursive: true, force: true });
  rmSync(staging, { recursive: true, force: true });
  console.error(`corpus: committing ${worktree} into ${gitDir}`);
  git(staging, ['init', '--quiet', '--bare', '--initial-branch=main']);
  git(staging, ['config', 'core.bare', 'false']);
  // -f: a .gitignore inside the tree would otherwise leave files out.
  git(staging, ['add', '-A', '-f'], worktree);
  git(staging, ['commit', '--quiet', '--no-verify', '-m', `Linux 6.1 from Debian's ${TOP}`], worktree);
  git(staging, ['config', 'core.bare', 'true']);
  rmSync(join(staging, 'index'), { force: true });
  git(staging, ['repack', '-a', '-d', '-q']);
  renameSync(staging, gitDir);
}

export function prepareCorpus(root: string, quick: boolean): Corpus {
  const worktree = quick ? quickWorktree(root) : fullWorktree(root);
  const gitDir = join(root, quick ? 'linux-quick.git' : 'linux.git');
  if (headCommit(gitDir) === null) commitWorktree(worktree, gitDir);
  const commit = headCommit(gitDir);
  if (commit === null) throw new Error(`${gitDir} has no commit after preparing it`);
  const gitEntries = git(gitDir, ['ls-tree', '-r', '--name-only', '-z', commit]).split('\0').filter((p) => p !== '').length;
  return { quick, repoName: quick ? 'bench/linux-quick-6.1' : 'bench/linux-6.1', worktree, gitDir, commit, gitEntries };
}
