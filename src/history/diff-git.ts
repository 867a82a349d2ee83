/**
 * Commit lists and commit diffs read through the git CLI (src/git/run.ts), bounded in time and
 * output. Revisions arrive resolved to commit ids, so nothing a caller types reaches git as an option.
 * Merge commits have no diff, as in `git log -p` and `git log -G`: each change is the work of the
 * commit that made it, not of the merges that carried it along.
 */
import { utcFromEpochSeconds } from '../git/commit.js';
import { runGit } from '../git/run.js';
import type { CommitDiff, CommitMeta, FileDiff } from './diff-model.js';
import { parsePatch } from './diff-parse.js';

export interface GitBounds {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

const RECORD = '\x1eQ\x1f';
const FIELD = '\x1f';
const META_FORMAT = `--format=${'%x1eQ%x1f'}%H%x1f%P%x1f%an%x1f%ae%x1f%at%x1f%ct%x1f%B%x1e`;

/** Options every patch-producing command gets, whatever the user's git configuration says. */
export function patchOptions(context: number): string[] {
  return [
    '-p', '-M', `--unified=${context}`, '--no-color', '--no-ext-diff', '--no-textconv',
    '--src-prefix=a/', '--dst-prefix=b/', '--ignore-submodules=none',
  ];
}

/** Every commit reachable from `tips` (commit ids), newest first, without diffs. */
export async function listCommits(gitDir: string, tips: readonly string[], bounds: GitBounds): Promise<CommitMeta[]> {
  const out = await runGit(['-c', 'core.quotePath=false', 'log', META_FORMAT, '--stdin', '--'], {
    gitDir, input: `${tips.join('\n')}\n`, timeoutMs: bounds.timeoutMs, maxBytes: bounds.maxBytes,
  });
  return splitRecords(out.toString('utf8')).map((record) => parseMeta(record.header));
}

/** The listed commits with their diffs (none for merges), in the order given. */
export async function readCommitDiffs(gitDir: string, oids: readonly string[], context: number, bounds: GitBounds): Promise<CommitDiff[]> {
  return (await readCommitRecords(gitDir, oids, context, bounds)).map(parseCommitRecord);
}

/**
 * The listed commits in the order given, each as git printed it (metadata then patch), unparsed:
 * the history index stores these so a diff read from it parses exactly as one read from git.
 */
export async function readCommitRecords(gitDir: string, oids: readonly string[], context: number, bounds: GitBounds): Promise<string[]> {
  if (oids.length === 0) return [];
  const args = ['-c', 'core.quotePath=false', 'log', '--no-walk=unsorted', '--stdin', META_FORMAT, ...patchOptions(context), '--diff-merges=off', '--'];
  const out = await runGit(args, { gitDir, input: `${oids.join('\n')}\n`, timeoutMs: bounds.timeoutMs, maxBytes: bounds.maxBytes });
  return out.toString('utf8').split(RECORD).slice(1);
}

/** One record of readCommitRecords as a commit with its diff. */
export function parseCommitRecord(record: string): CommitDiff {
  const end = record.indexOf('\x1e');
  return { ...parseMeta(record.slice(0, end)), files: parsePatch(record.slice(end + 1)) };
}

/** The changes from `base` to `head` (commit ids), renames detected. */
export async function diffTrees(gitDir: string, base: string, head: string, context: number, bounds: GitBounds): Promise<FileDiff[]> {
  const out = await runGit(['-c', 'core.quotePath=false', 'diff', ...patchOptions(context), base, head, '--'], { gitDir, ...bounds });
  return parsePatch(out.toString('utf8'));
}

interface RawRecord {
  readonly header: string;
  readonly patch: string;
}

function splitRecords(text: string): RawRecord[] {
  return text.split(RECORD).slice(1).map((chunk) => {
    const end = chunk.indexOf('\x1e');
    return { header: chunk.slice(0, end), patch: chunk.slice(end + 1) };
  });
}

function parseMeta(header: string): CommitMeta {
  const [oid = '', parents = '', authorName = '', authorEmail = '', authorDate = '', committerDate = '', ...message] = header.split(FIELD);
  return {
    oid,
    parents: parents === '' ? [] : parents.split(' '),
    authorName,
    authorEmail,
    authorDate: utcFromEpochSeconds(authorDate),
    committerDate: utcFromEpochSeconds(committerDate),
    message: message.join(FIELD).replace(/\n+$/, ''),
  };
}
