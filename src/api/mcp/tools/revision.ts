/**
 * The repository and commit a file tool reads, or a ToolError the agent can act on (naming the
 * closest repositories or refs). An unreadable repository gets exactly the answer a missing one
 * gets, so tools never reveal what exists.
 */
import { quoteInput, revisionProblem, shorten } from '../../../git/input.js';
import { ToolError, type ToolContext } from '../tool.js';
import { closest, resolveRepoName } from './closest-names.js';

export interface RepoAtCommit {
  readonly repo: string;
  readonly commit: string;
  /** What to call the commit in messages: the revision asked for, else the short commit id. */
  readonly label: string;
}

const FULL_OID = /^[0-9a-f]{40}$/;

export async function resolveRepoAtCommit(ctx: ToolContext, name: string, revision: string | undefined): Promise<RepoAtCommit> {
  const repo = resolveRepoName(ctx, name);
  const rev = revision?.trim() ?? '';
  const problem = rev === '' ? null : revisionProblem(rev);
  if (problem !== null) {
    throw new ToolError(`Invalid revision ${quoteInput(rev)}: it ${problem}. Pass one branch, tag or commit id (such as "main", "v1.2.0" or "HEAD~2"), or omit revision to read the default branch.`);
  }
  if (rev === '') {
    const commit = await ctx.services.defaultCommit(repo);
    if (commit === null) throw new ToolError(`Repository ${repo} is empty: it has no commits to read yet.`);
    return { repo, commit, label: commit.slice(0, 12) };
  }
  // The default commit spelled out in full needs no git lookup: the common case of a follow-up call.
  if (FULL_OID.test(rev.toLowerCase()) && (await ctx.services.defaultCommit(repo)) === rev.toLowerCase()) {
    return { repo, commit: rev.toLowerCase(), label: rev };
  }
  const commit = await ctx.services.repos.resolveRevision(repo, rev);
  if (commit === null) {
    throw new ToolError(`Revision not found: ${shorten(rev)} in ${repo}.${await closestRefsHint(ctx, repo, rev)} Pass a branch, tag or commit that exists, or omit revision to read the default branch.`);
  }
  return { repo, commit, label: rev };
}

/** `repo@label` for messages. */
export function describeAt(at: RepoAtCommit): string {
  return `${at.repo}@${at.label}`;
}

/** " Closest existing: v2.6.0, 2.6.0." for a revision a repository lacks, or "" when none is close. */
export async function closestRefsHint(ctx: ToolContext, repo: string, rev: string): Promise<string> {
  const near = closest(rev.replace(/^\^/, ''), (await ctx.services.repos.refs(repo)).map((r) => r.name));
  return near.length > 0 ? ` Closest existing: ${near.join(', ')}.` : '';
}
