/**
 * A repository with a scripted history for the history tests, made with plain git: several
 * authors and committers, fixed dates, renames, a binary change, an empty commit, a merge,
 * a side branch, lightweight and annotated tags.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { BINARY_CONTENT, git, initRepo, writeFiles } from '../git/fixtures.js';

export interface Step {
  readonly author: string;
  readonly date: number;
  readonly message: string;
  readonly files?: Record<string, string | Buffer>;
  readonly remove?: readonly string[];
  readonly rename?: readonly [string, string];
  readonly committer?: string;
}

const PEOPLE: Readonly<Record<string, string>> = {
  alice: 'Alice Liddell <alice@wonder.land>',
  bob: 'Bob Builder <bob@builders.example>',
  carol: 'Carol Danvers <carol@space.example>',
  dave: 'Dave Lister <dave@red.dwarf>',
};

function personEnv(prefix: 'AUTHOR' | 'COMMITTER', who: string, date: number): Record<string, string> {
  const [, name = '', email = ''] = /^(.*) <(.*)>$/.exec(PEOPLE[who] ?? who) ?? [];
  return { [`GIT_${prefix}_NAME`]: name, [`GIT_${prefix}_EMAIL`]: email, [`GIT_${prefix}_DATE`]: `@${date} +0000` };
}

export function gitAs(repo: string, author: string, committer: string, date: number, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...personEnv('AUTHOR', author, date), ...personEnv('COMMITTER', committer, date) },
  }).trim();
}

export function applyStep(repo: string, step: Step): string {
  if (step.files) writeFiles(repo, step.files);
  for (const path of step.remove ?? []) rmSync(join(repo, path));
  if (step.rename) git(repo, 'mv', step.rename[0], step.rename[1]);
  git(repo, 'add', '--all');
  gitAs(repo, step.author, step.committer ?? step.author, step.date, 'commit', '--quiet', '--allow-empty', '-m', step.message);
  return git(repo, 'rev-parse', 'HEAD');
}

export const T0 = 1_700_000_000;
const DAY = 86400;

/** Builds the scripted repository in `dir`; dates rise one day per commit from T0. */
export function buildScriptedRepo(dir: string): string {
  initRepo(dir, 'main');
  let day = 0;
  const step = (s: Omit<Step, 'date'>): string => applyStep(dir, { ...s, date: T0 + DAY * day++ });
  step({ author: 'alice', message: 'Initial commit\n\nSets up the project layout.', files: { 'README.md': '# demo\n', 'src/core.ts': 'export const answer = 42;\n' } });
  step({ author: 'bob', message: 'Add parser module', files: { 'src/parser.ts': 'export function parse(s: string) { return s.trim(); }\n' } });
  step({ author: 'alice', message: 'fix: handle empty input in parser', files: { 'src/parser.ts': 'export function parse(s: string) { return (s ?? "").trim(); }\n' } });
  step({ author: 'carol', committer: 'alice', message: 'Add logo image', files: { 'assets/logo.bin': BINARY_CONTENT } });
  git(dir, 'tag', 'v1.0');
  step({ author: 'bob', message: 'Rename core to engine', rename: ['src/core.ts', 'src/engine.ts'] });
  step({ author: 'dave', message: 'Empty commit: trigger CI' });
  git(dir, 'checkout', '--quiet', '-b', 'feature');
  step({ author: 'carol', message: 'Feature: add tokenizer', files: { 'src/tokenizer.ts': 'export const TOKEN_LIMIT = 10;\n' } });
  step({ author: 'carol', message: 'Feature: tokenizer handles unicode\n\nFixes #12.', files: { 'src/tokenizer.ts': 'export const TOKEN_LIMIT = 20;\n' } });
  git(dir, 'checkout', '--quiet', 'main');
  step({ author: 'alice', message: 'Update README with usage', files: { 'README.md': '# demo\n\nUsage: run it.\n' } });
  gitAs(dir, 'bob', 'bob', T0 + DAY * day++, 'merge', '--quiet', '--no-ff', '-m', 'Merge branch feature', 'feature');
  gitAs(dir, 'alice', 'alice', T0 + DAY * day, 'tag', '-a', 'v2.0', '-m', 'release 2.0');
  step({ author: 'dave', message: 'FIX: binary logo refresh', files: { 'assets/logo.bin': Buffer.concat([BINARY_CONTENT, BINARY_CONTENT]) } });
  step({ author: 'bob', message: 'Remove parser; fix the build', remove: ['src/parser.ts'] });
  git(dir, 'checkout', '--quiet', '-b', 'experiment', 'v1.0');
  step({ author: 'dave', message: 'Experiment: try a new answer', files: { 'src/core.ts': 'export const answer = 43;\n' } });
  git(dir, 'checkout', '--quiet', 'main');
  return dir;
}

/** `git log` oids for the given flags, sorted. */
export function gitLogOids(repo: string, ...args: string[]): string[] {
  const out = git(repo, 'log', '--format=%H', ...args);
  return out === '' ? [] : out.split('\n').sort();
}
