/**
 * ripgrep as a contender: no index, a fresh scan of the worktree per query. Builds its command line
 * and parses its rows; it never looks at Quarry's or csearch's results.
 */
import type { BenchQuery } from '../queries.js';
import { collect, count, firstLine, type Counted } from './process.js';
import { parseGrepRows, type RowSet } from './rows.js';

/** rg exits 1 when nothing matched. */
const RG_OK = [0, 1] as const;

/** Everything a checkout holds (-uu: no ignore files, hidden files too; binaries still skipped), files up to 1 MiB, 2 threads. */
export function rgArgs(q: BenchQuery, worktree: string): string[] {
  return [
    '-n', '--no-heading', '--no-messages', '-uu', '-j2', '--max-filesize', '1M',
    q.caseSensitive ? '-s' : '-i',
    ...(q.literal ? ['-F'] : []),
    '-e', q.rgPattern ?? q.pattern, worktree,
  ];
}

export async function rgRows(q: BenchQuery, worktree: string): Promise<{ rows: RowSet; ms: number }> {
  const run = await collect('rg', rgArgs(q, worktree), { okCodes: RG_OK });
  return { rows: parseGrepRows(run.stdout, worktree), ms: run.ms };
}

/** One timed iteration: the whole process, its output read through a pipe and counted. */
export function rgOnce(q: BenchQuery, worktree: string): Promise<Counted> {
  return count('rg', rgArgs(q, worktree), { okCodes: RG_OK });
}

export function rgVersion(): Promise<string> {
  return firstLine('rg', ['--version']);
}
