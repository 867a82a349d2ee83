/** `git grep` as the differential tests' reference: matching rows as sorted `path:line` (no match: none). */
import { execFileSync } from 'node:child_process';

/** `args`: the pattern options, revision and pathspecs after `git grep -z -n -I --no-color`. */
export function gitGrepRows(cwd: string, args: readonly string[]): string[] {
  let out = '';
  try {
    out = execFileSync('git', ['grep', '-z', '-n', '-I', '--no-color', ...args], { cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' }, maxBuffer: 64 << 20 });
  } catch (err) {
    // Exit status 1: nothing matched.
    if ((err as { status?: number }).status !== 1) throw err;
  }
  return out.split('\n').filter(Boolean).map((row) => {
    const [path, line] = row.replace(/^HEAD:/, '').split('\0');
    return `${path}:${line}`;
  }).sort();
}
