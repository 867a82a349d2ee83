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
  const out = (await runGit(['log', '-1', '--format=%H%x00%an%x00%ae%x00%aI%x00%B', oid, '--'], { gitDir })).toString('utf8');
  const [hash = oid, authorName = '', authorEmail = '', authorDate = '', message = ''] = out.split('\0');
  // git prints the author's own offset; the API speaks RFC 3339 in UTC.
  const utc = new Date(authorDate).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { oid: hash, authorName, authorEmail, authorDate: utc, message: message.replace(/\n+$/, '') };
}
