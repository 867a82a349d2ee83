/**
 * A small real repository whose history merges the way projects do, built with plain git: a
 * feature branch merged with --no-ff after main moved on (the merge carries the branch's change),
 * a conflicting merge resolved with a line neither parent had (a change no parent made), and
 * enough ordinary commits to page through. Also where the corpora bundles are, when present.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { git, initRepo, writeFiles } from '../git/fixtures.js';
import { applyStep, gitAs, T0 } from './scripted-repo.js';

export interface MergeHistory {
  /** The work tree; git commands run here. */
  readonly dir: string;
  readonly gitDir: string;
  readonly oids: Readonly<Record<'feature' | 'merge' | 'ours' | 'theirs' | 'conflictMerge', string>>;
}

const HOUR = 3600;
/** Ordinary commits before and after the merges. */
const STEPS = 24;

export function buildMergeHistory(dir: string): MergeHistory {
  initRepo(dir, 'main');
  let hour = 0;
  const step = (author: string, message: string, files: Record<string, string>): string => applyStep(dir, { author, message, files, date: T0 + HOUR * hour++ });
  const steps: string[] = [];
  const addStep = (n: number): string => {
    steps.push(`step ${n}: marker_${n % 3 === 0 ? 'three' : 'other'}`);
    return step(n % 2 === 0 ? 'alice' : 'bob', `${n % 4 === 0 ? 'fix' : 'Add'}: step ${n}`, { 'steps.txt': `${steps.join('\n')}\n` });
  };
  step('alice', 'Initial commit', { 'config.txt': 'name = demo\nmode = plain\n', 'steps.txt': '' });
  for (let n = 1; n <= STEPS / 2; n++) addStep(n);

  git(dir, 'checkout', '--quiet', '-b', 'feature');
  const feature = step('carol', 'feature: add the feature flag', { 'config.txt': 'name = demo\nmode = plain\nfeature_flag = on\n' });
  git(dir, 'checkout', '--quiet', 'main');
  addStep(STEPS / 2 + 1);
  gitAs(dir, 'bob', 'bob', T0 + HOUR * hour++, 'merge', '--quiet', '--no-ff', '-m', 'Merge branch feature: fix the flag', 'feature');
  const merge = git(dir, 'rev-parse', 'HEAD');

  git(dir, 'checkout', '--quiet', '-b', 'b2');
  const theirs = step('dave', 'b2: mode for b2', { 'config.txt': 'name = demo\nmode = from_b2\nfeature_flag = on\n' });
  git(dir, 'checkout', '--quiet', 'main');
  const ours = step('alice', 'main: mode for main', { 'config.txt': 'name = demo\nmode = from_main\nfeature_flag = on\n' });
  let merged = true;
  try {
    gitAs(dir, 'bob', 'bob', T0 + HOUR * hour, 'merge', '--quiet', '--no-ff', '-m', 'unused', 'b2');
  } catch {
    merged = false;
  }
  if (merged || git(dir, 'diff', '--name-only', '--diff-filter=U') !== 'config.txt') throw new Error('the b2 merge was meant to conflict in config.txt');
  writeFiles(dir, { 'config.txt': 'name = demo\nmode = resolved_in_merge\nfeature_flag = on\n' });
  git(dir, 'add', 'config.txt');
  gitAs(dir, 'bob', 'bob', T0 + HOUR * hour++, 'commit', '--quiet', '-m', 'Merge branch b2, resolving the mode conflict');
  const conflictMerge = git(dir, 'rev-parse', 'HEAD');
  for (let n = STEPS / 2 + 2; n <= STEPS; n++) addStep(n);
  return { dir, gitDir: join(dir, '.git'), oids: { feature, merge, ours, theirs, conflictMerge } };
}

/** Commit ids `git log` prints for the flags, in its order. */
export function gitLog(dir: string, ...args: string[]): string[] {
  const out = git(dir, 'log', '--format=%H', ...args);
  return out === '' ? [] : out.split('\n');
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The bundle's path in ../shared/corpora beside the checkout, or null when the corpora are not there. */
export function corpusBundle(name: string): string | null {
  const path = join(ROOT, '..', 'shared', 'corpora', name);
  return existsSync(path) ? path : null;
}

export const NO_CORPORA = 'needs ../shared/corpora (real repositories beside the checkout; a fresh clone has none)';

/** A bare mirror of the bundle in `dir`. */
export function mirrorBundle(bundle: string, dir: string): string {
  execFileSync('git', ['clone', '--quiet', '--mirror', bundle, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  return dir;
}
