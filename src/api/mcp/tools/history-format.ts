/**
 * Text blocks of the history tools: one block per commit (`<repo> <short hash> <date> <author>`,
 * the subject, the first lines of the body) and the guard that the history service is present.
 */
import type { RepoHistory } from '../../../history/repo-history.js';
import type { CommitHit } from '../../../history/history-service.js';
import { truncateLine } from '../format.js';
import { ToolError, type ToolContext } from '../tool.js';

const BODY_LINES = 4;
const LINE_CHARS = 200;

export function historyOf(ctx: ToolContext): RepoHistory {
  const history = ctx.services.history;
  if (!history) throw new ToolError('Commit history is not available on this server.');
  return history;
}

/** `2024-01-31` in UTC. */
export function isoDay(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

export function commitBlock(hit: CommitHit): string {
  const { commit } = hit;
  const [subject = '', ...rest] = commit.message.split('\n');
  const body = rest.map((l) => l.trimEnd()).filter((l) => l !== '');
  let text = `${hit.repository} ${commit.oid.slice(0, 10)} ${isoDay(commit.authorDate)} ${commit.authorName} <${commit.authorEmail}>\n`;
  text += `    ${truncateLine(subject, LINE_CHARS)}\n`;
  for (const line of body.slice(0, BODY_LINES)) text += `    ${truncateLine(line, LINE_CHARS)}\n`;
  if (body.length > BODY_LINES) text += `    (${body.length - BODY_LINES} more message lines)\n`;
  return text;
}
