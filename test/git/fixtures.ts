/**
 * Real git repositories built in temp dirs for tests, with plain `git` (not the code under test):
 * nested dirs, a binary file, an executable, a symlink, a submodule entry, branches and tags.
 */

import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Quarry Test',
  GIT_AUTHOR_EMAIL: 'test@quarry.invalid',
  GIT_COMMITTER_NAME: 'Quarry Test',
  GIT_COMMITTER_EMAIL: 'test@quarry.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** Runs git in `cwd` and returns its trimmed stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A fresh temp dir; pass it to `removeDir` when done. */
export function makeTempDir(label = 'quarry-test'): string {
  return mkdtempSync(join(tmpdir(), `${label}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function initRepo(dir: string, branch = 'main'): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '--quiet', '--initial-branch', branch);
  return dir;
}

export function writeFiles(repo: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
}

/** Stages everything and commits; returns the new commit's oid. */
export function commitAll(repo: string, message: string): string {
  git(repo, 'add', '--all');
  git(repo, 'commit', '--quiet', '--allow-empty', '-m', message);
  return git(repo, 'rev-parse', 'HEAD');
}

/** Every byte value, repeated: NULs, high bytes, invalid UTF-8. */
export const BINARY_CONTENT = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));

export const FIRST_FILES: Record<string, string | Buffer> = {
  'README.md': '# sample\n',
  'src/main.ts': 'export const main = 1;\n',
  'src/lib/util.ts': 'export function util(): number {\n  return 2;\n}\n',
  'deep/a/b/c/d.txt': 'deep file\n',
  'assets/blob.bin': BINARY_CONTENT,
  'empty.txt': '',
};

export interface SampleRepo {
  readonly dir: string;
  /** Regular files, a symlink `link`, a submodule entry `vendor/sub`, an executable `scripts/run.sh`. */
  readonly first: string;
  /** README modified, util.ts deleted, d.txt renamed to moved.txt, new.txt added, main.ts made executable. */
  readonly second: string;
  /** Tip of branch `feature`, forked from `first`. */
  readonly feature: string;
}

/** Builds the sample repository at `dir`: `main` at `second`, `feature`, and annotated tag `v1` at `first`. */
export function createSampleRepo(dir: string): SampleRepo {
  initRepo(dir);
  writeFiles(dir, FIRST_FILES);
  writeFiles(dir, { 'scripts/run.sh': '#!/bin/sh\necho run\n' });
  chmodSync(join(dir, 'scripts/run.sh'), 0o755);
  symlinkSync('README.md', join(dir, 'link'));
  git(dir, 'add', '--all');
  git(dir, 'update-index', '--add', '--cacheinfo', `160000,${'a'.repeat(40)},vendor/sub`);
  git(dir, 'commit', '--quiet', '-m', 'first');
  const first = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'tag', '-a', 'v1', '-m', 'version 1');

  git(dir, 'checkout', '--quiet', '-b', 'feature');
  writeFiles(dir, { 'feature.txt': 'feature work\n' });
  const feature = commitAll(dir, 'feature');
  git(dir, 'checkout', '--quiet', 'main');

  writeFiles(dir, { 'README.md': '# sample, changed\n', 'new.txt': 'new file\n' });
  rmSync(join(dir, 'src/lib/util.ts'));
  git(dir, 'mv', 'deep/a/b/c/d.txt', 'deep/moved.txt');
  chmodSync(join(dir, 'src/main.ts'), 0o755);
  const second = commitAll(dir, 'second');
  return { dir, first, second, feature };
}
