/**
 * Worker side of diff search over the history index: inflates a batch of stored commit records,
 * parses and matches the changed lines of those that can match (diff-line-scan.ts), and answers
 * only the commits that match, as hits ready to show, so the searching thread parses nothing.
 * Runs only in a pool worker, never on the main thread; the matcher compiler is injected.
 */
import { inflateRecordBytes } from '../index/history/record-codec.js';
import { hunkHits } from './diff-batch-match.js';
import { parseCommitRecord } from './diff-git.js';
import { packDiffLines, type DiffRecordHits, type DiffRecordJob } from './diff-lines.js';
import { scanDiffLines, type CompileMatcher } from './diff-line-scan.js';
import type { CommitDiff, CommitHit } from './diff-model.js';

const RECORD_END = 0x1e;
const FILE_START = Buffer.from('\ndiff --git ');
const HUNK_START = Buffer.from('\n@@ ');

export function scanDiffRecords(job: DiffRecordJob, compile: CompileMatcher): DiffRecordHits {
  const { pattern } = job;
  // A record holds each of its changed lines, a hunk each of its own: when every reported atom is
  // plain text, a record (a hunk) none of them matches has no matching line. Such records are passed
  // over unparsed; without an expression over the commit's other lines, such hunks too.
  const literal = pattern.highlight.every((atom) => pattern.literal[atom] === true) ? pattern.highlight.map((atom) => compile([pattern.specs[atom]!], 'auto')) : null;
  const matches = (bytes: Uint8Array): boolean => literal!.some((matcher) => matcher.test(bytes, true) !== 0);
  const parsed: CommitDiff[] = [];
  const slots: number[] = [];
  let start = 0;
  job.ends.forEach((end, i) => {
    const bytes = inflateRecordBytes(job.records.subarray(start, end));
    start = end;
    if (literal !== null && !matches(bytes)) return;
    if (literal === null || pattern.expr !== null) {
      parsed.push(parseCommitRecord(bytes.toString('utf8')));
    } else {
      const header = bytes.indexOf(RECORD_END) + 1;
      parsed.push(parseCommitRecord(`${bytes.toString('utf8', 0, header)}${hunksMatching(bytes.subarray(header), matches)}`));
    }
    slots.push(i);
  });
  const matched = new Uint8Array(job.ends.length);
  const hits: (CommitHit | null)[] = job.ends.length === 0 || job.matchesOnly === true ? [] : new Array<CommitHit | null>(job.ends.length).fill(null);
  if (parsed.length === 0) return { hits, matched };
  const batch = packDiffLines(parsed);
  const perCommit = batch.ends.length === 0 ? parsed.map(() => []) : hunkHits(parsed, scanDiffLines({ ...batch, pattern, searched: job.searched }, compile));
  perCommit.forEach((hunks, k) => {
    if (hunks.length === 0) return;
    matched[slots[k]!] = 1;
    if (job.matchesOnly === true) return;
    const { files: _files, ...commit } = parsed[k]!;
    hits[slots[k]!] = { commit, hunks };
  });
  return { hits, matched };
}

/** The patch cut to the hunks `matches` accepts, each file's kept ones under its header lines; '' when none is kept. */
function hunksMatching(patch: Buffer, matches: (bytes: Uint8Array) => boolean): string {
  const kept: Buffer[] = [];
  const files = pieces(patch, FILE_START);
  // What precedes the first file's header line (blank lines) names no file: parsing passes over it anyway.
  if (!patch.subarray(0, FILE_START.length - 1).equals(FILE_START.subarray(1))) files.shift();
  for (const file of files) {
    const [header, ...hunks] = pieces(file, HUNK_START);
    const matching = hunks.filter(matches);
    if (matching.length > 0) kept.push(header!, ...matching);
  }
  return Buffer.concat(kept).toString('utf8');
}

/**
 * `bytes` cut before each line that starts with `marker` (a newline then the line's start): the
 * part before the first such line, then one piece per line and what follows it. Only file and
 * hunk headers start lines so: a changed or context line starts with its kind, never with these.
 */
function pieces(bytes: Buffer, marker: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let from = 0;
  for (let at = bytes.indexOf(marker); at >= 0; at = bytes.indexOf(marker, at + 1)) {
    out.push(bytes.subarray(from, at + 1));
    from = at + 1;
  }
  out.push(bytes.subarray(from));
  return out;
}
