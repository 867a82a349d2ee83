/**
 * Streams commits out of one `git log` process in batches, so a history of any length is read
 * in bounded memory. Merges list the paths changed against their first parent; renames count
 * as delete plus add (both paths), as `git log -- path` sees them without --follow.
 */
import { spawn } from 'node:child_process';
import type { StoredCommit } from '../index/commits/commit-store.js';
import { firstErrorLine, gitArgs, gitEnvironment, gitFailure } from '../git/run.js';

const RECORD = 0x1e;
// %x1e opens each record; header fields and the message end in NUL, then the -z name list follows.
const FORMAT = '--format=%x1e%H%x00%P%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%ct%x00%B%x00';
const HEADER_FIELDS = 9;

export interface GitLogOptions {
  /** Revisions and exclusions (`^oid`), handed to git on stdin. */
  readonly revisions: readonly string[];
  readonly batchSize: number;
  readonly timeoutMs: number;
}

export async function streamCommits(gitDir: string, options: GitLogOptions, onBatch: (commits: StoredCommit[]) => Promise<void>): Promise<void> {
  const args = ['log', '-z', '--name-only', '--no-renames', '--diff-merges=first-parent', FORMAT, '--stdin'];
  const child = spawn('git', gitArgs(args, gitDir), { env: gitEnvironment(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 65536) stderr += chunk.toString('utf8');
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(`${options.revisions.join('\n')}\n`);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', (err) => reject(gitFailure(args, err.message)));
    child.on('close', resolve);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  try {
    let pending: Buffer = Buffer.alloc(0);
    let batch: StoredCommit[] = [];
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let start = pending.indexOf(RECORD);
      for (let next = pending.indexOf(RECORD, start + 1); start >= 0 && next >= 0; next = pending.indexOf(RECORD, start + 1)) {
        batch.push(parseRecord(pending.subarray(start + 1, next)));
        start = next;
      }
      pending = start > 0 ? pending.subarray(start) : pending;
      if (batch.length >= options.batchSize) {
        await onBatch(batch);
        batch = [];
      }
    }
    if (pending.length > 1) batch.push(parseRecord(pending.subarray(1)));
    const code = await exited;
    if (timedOut) throw gitFailure(args, `timed out after ${options.timeoutMs} ms`, { timedOut: true });
    if (code !== 0) throw gitFailure(args, firstErrorLine(stderr) || `exit code ${String(code)}`, { exitCode: code });
    if (batch.length > 0) await onBatch(batch);
  } finally {
    clearTimeout(timer);
    child.kill('SIGKILL');
  }
}

function parseRecord(bytes: Buffer): StoredCommit {
  const fields = bytes.toString('utf8').split('\0');
  const [oid = '', parents = '', authorName = '', authorEmail = '', authorDate = '0', committerName = '', committerEmail = '', committerDate = '0', message = ''] = fields;
  const paths = fields.slice(HEADER_FIELDS).map((p, i) => (i === 0 ? p.replace(/^\n/, '') : p)).filter((p) => p !== '');
  return {
    oid, parents: parents === '' ? [] : parents.split(' '),
    authorName, authorEmail, authorDate: Number(authorDate), committerName, committerEmail, committerDate: Number(committerDate),
    message: message.replace(/\n+$/, ''), paths,
  };
}
