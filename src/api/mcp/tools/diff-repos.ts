/**
 * Shared by diff_search and compare_revisions: the diff service (or a tool error when the server
 * has none), and the text of hunks and commit links.
 */
import type { DiffHistory } from '../../../history/diff-service.js';
import type { DiffHunk } from '../../../history/diff-model.js';
import { ToolError, type ToolContext } from '../tool.js';

export function diffService(ctx: ToolContext): DiffHistory {
  const diffs = ctx.services.diffs;
  if (diffs === undefined) throw new ToolError('History search is not available on this server.');
  return diffs;
}

export function commitUrl(origin: string, repo: string, oid: string): string {
  return `${origin}/${repo}/-/commit/${oid}`;
}

export function hunkHeader(hunk: DiffHunk): string {
  const range = (r: DiffHunk['oldRange']): string => (r.lines === 1 ? `${r.startLine}` : `${r.startLine},${r.lines}`);
  return `@@ -${range(hunk.oldRange)} +${range(hunk.newRange)} @@${hunk.section === '' ? '' : ` ${hunk.section}`}`;
}

/** The hunk as git prints it, without its header line. */
export function hunkBody(hunk: DiffHunk): string {
  let body = '';
  for (const line of hunk.lines) body += `${line.kind}${line.text}\n`;
  return body;
}
