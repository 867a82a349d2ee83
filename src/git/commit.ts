/**
 * One commit's author and message through `git log -1`. Walks over many commits belong to
 * history/, which streams them; this reads a single commit named by its id.
 */
import { runGit } from './run.js';

export interface CommitHeader {
  readonly oid: string;
  readonly authorName: string;
  readonly authorEmail: string;
  /** RFC 3339 in UTC. */
  readonly authorDate: string;
  /** Without trailing newlines. */
  readonly message: string;
}

export async function readCommitHeader(gitDir: string, oid: string): Promise<CommitHeader> {
  const out = (await runGit(['log', '-1', '--format=%H%x00%an%x00%ae%x00%at%x00%B', oid, '--'], { gitDir })).toString('utf8');
  const [hash = oid, authorName = '', authorEmail = '', authorSeconds = '', message = ''] = out.split('\0');
  return { oid: hash, authorName, authorEmail, authorDate: utcFromEpochSeconds(authorSeconds), message: message.replace(/\n+$/, '') };
}

/**
 * git's %at or %ct as RFC 3339 in UTC, as the APIs speak. Epoch seconds, not git's ISO form: that
 * carries the commit's own offset verbatim, and real histories hold offsets such as +518:00
 * (psf/requests) that no date parser accepts.
 */
export function utcFromEpochSeconds(seconds: string): string {
  const at = Number(seconds);
  return new Date(Number.isFinite(at) ? at * 1000 : 0).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
