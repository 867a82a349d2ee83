/**
 * A scripted history for the diff tests, built with plain git: authors and dates, an edit, a
 * rename with a space in the name, a deletion, binary files, an empty commit, a feature branch
 * merged with --no-ff, and a tag. `expect*` helpers ask git itself for the answers to compare with.
 */
import { execFileSync } from 'node:child_process';
import { BINARY_CONTENT, git, initRepo, makeTempDir, writeFiles } from '../git/fixtures.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

export interface DiffRepo {
  readonly dir: string;
  readonly oids: Readonly<Record<'c1' | 'c2' | 'c3' | 'empty' | 'f1' | 'm1' | 'merge', string>>;
}

function commitAs(dir: string, author: string, date: string, message: string): string {
  const [name, email] = author.split(':') as [string, string];
  execFileSync('git', ['commit', '--quiet', '--allow-empty', '-m', message], {
    cwd: dir,
    env: {
      ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email,
      GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date,
    },
  });
  return git(dir, 'rev-parse', 'HEAD');
}

function stage(dir: string): void {
  git(dir, 'add', '--all');
}

export function createDiffRepo(): DiffRepo {
  const dir = initRepo(join(makeTempDir('quarry-diff'), 'repo'));
  writeFiles(dir, { 'a.txt': 'alpha\nbeta\ngamma\n', 'bin.dat': BINARY_CONTENT, 'sp ace.txt': 'space one\n', 'keep.txt': 'k1\nk2\nk3\nk4\nk5\nk6\nk7\nk8\n' });
  stage(dir);
  const c1 = commitAs(dir, 'Alice:alice@example.com', '2024-01-01T10:00:00Z', 'first: add files');
  writeFiles(dir, { 'a.txt': 'alpha\nBETA\ngamma\ndelta\n', 'keep.txt': 'k1\nk2 delta\nk3\nk4\nk5\nk6\nk7 delta\nk8' });
  stage(dir);
  const c2 = commitAs(dir, 'Bob:bob@example.org', '2024-02-01T10:00:00Z', 'second: delta arrives');
  git(dir, 'tag', 'v1');
  git(dir, 'mv', 'a.txt', 'b file.txt');
  writeFiles(dir, { 'b file.txt': 'alpha\nBETA\ngamma\ndelta\nepsilon\n' });
  git(dir, 'rm', '--quiet', 'sp ace.txt');
  stage(dir);
  const c3 = commitAs(dir, 'Alice:alice@example.com', '2024-03-01T10:00:00Z', 'third: rename and delete');
  const empty = commitAs(dir, 'Bob:bob@example.org', '2024-04-01T10:00:00Z', 'empty commit');
  git(dir, 'checkout', '--quiet', '-b', 'feature');
  writeFiles(dir, { 'feature.txt': 'beta feature\nünïcode delta\n', 'bin.dat': Buffer.concat([BINARY_CONTENT, Buffer.from([0, 1, 2])]) });
  stage(dir);
  const f1 = commitAs(dir, 'Carol:carol@example.net', '2024-05-01T10:00:00Z', 'feature: add feature file');
  git(dir, 'checkout', '--quiet', 'main');
  writeFiles(dir, { 'b file.txt': 'alpha\nBETA\ndelta\nepsilon\n' });
  stage(dir);
  const m1 = commitAs(dir, 'Bob:bob@example.org', '2024-05-15T10:00:00Z', 'main: drop gamma');
  execFileSync('git', ['merge', '--quiet', '--no-ff', '-m', 'merge feature', 'feature'], {
    cwd: dir,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Bob', GIT_AUTHOR_EMAIL: 'bob@example.org', GIT_COMMITTER_NAME: 'Bob', GIT_COMMITTER_EMAIL: 'bob@example.org', GIT_AUTHOR_DATE: '2024-06-01T10:00:00Z', GIT_COMMITTER_DATE: '2024-06-01T10:00:00Z' },
  });
  const merge = git(dir, 'rev-parse', 'HEAD');
  return { dir: join(dir, '.git'), oids: { c1, c2, c3, empty, f1, m1, merge } };
}

export function removeDiffRepo(repo: DiffRepo): void {
  rmSync(join(repo.dir, '..', '..'), { recursive: true, force: true });
}

/** `git diff --numstat -M base...head` as path → [added, deleted] (binary: null). */
export function expectNumstat(repo: DiffRepo, base: string, head: string): Map<string, [number, number] | null> {
  const out = git(repo.dir, 'diff', '--numstat', '-z', '-M', `${base}...${head}`);
  const result = new Map<string, [number, number] | null>();
  const fields = out.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const record = fields[i]!;
    if (record === '') continue;
    const [added, deleted, path] = record.split('\t') as [string, string, string];
    // Renames: an empty path, then the old and the new path as their own fields.
    const name = path === '' ? fields[(i += 2)]! : path;
    result.set(name, added === '-' ? null : [Number(added), Number(deleted)]);
  }
  return result;
}

/** Commits `git log -G<re>` finds from `rev`, newest first (merges never: git shows no diff for them). */
export function expectLogG(repo: DiffRepo, re: string, rev = 'HEAD', extra: readonly string[] = []): string[] {
  return git(repo.dir, 'log', `-G${re}`, '-M', '--format=%H', ...extra, rev, '--').split('\n').filter((l) => /^[0-9a-f]{40}$/.test(l));
}

/** The added and removed lines of one (non-merge) commit that match `re`, as `+text`/`-text`, sorted. */
export function expectChangedLines(repo: DiffRepo, oid: string, re: RegExp, kinds = '+-'): string[] {
  const out = git(repo.dir, 'show', '--format=', '-M', '--unified=0', '--no-color', oid);
  return out.split('\n')
    .filter((l) => (l.startsWith('+') || l.startsWith('-')) && !l.startsWith('+++ ') && !l.startsWith('--- '))
    .filter((l) => kinds.includes(l[0]!) && re.test(l.slice(1)))
    .sort();
}
