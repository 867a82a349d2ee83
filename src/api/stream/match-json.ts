/**
 * Engine matches in the stream API's JSON shapes (reference §3.4), before events.ts cuts lines
 * and adds chunk matches: what the streaming endpoint sends and `quarry search --json` prints.
 */
import type { CommitMatch, SearchMatch } from '../../model/result.js';

export function toStreamMatch(match: SearchMatch): Record<string, unknown> {
  if (match.type === 'repo') {
    return { type: 'repo', repositoryID: match.repositoryID, repository: match.repository, branches: match.branches, fork: match.fork, archived: match.archived };
  }
  if (match.type === 'commit') return commitStreamMatch(match);
  const common = {
    type: match.type,
    path: match.path,
    repositoryID: match.repositoryID,
    repository: match.repository,
    branches: match.branches,
    commit: match.commit,
    ...(match.pathMatches.length > 0 ? { pathMatches: match.pathMatches.map(([offset, length]) => pathRange(offset, length)) } : {}),
  };
  if (match.type === 'path') return common;
  return { ...common, hunks: null, lineMatches: match.lineMatches, language: match.language };
}

/** Sourcegraph's commit event, for type:commit and type:diff alike. */
function commitStreamMatch(match: CommitMatch): Record<string, unknown> {
  const url = `/${match.repository}/-/commit/${match.oid}`;
  const subject = match.message.split('\n', 1)[0] ?? '';
  return {
    type: 'commit',
    label: `[${match.repository}](/${match.repository}) › [${match.authorName}](${url}): [${subject}](${url})`,
    url,
    detail: `[\`${match.oid.slice(0, 7)}\` ${match.authorDate}](${url})`,
    repositoryID: match.repositoryID,
    repository: match.repository,
    oid: match.oid,
    message: match.message,
    authorName: match.authorName,
    authorDate: match.authorDate,
    ...commitContent(match),
  };
}

/** A diff match shows its hunks fenced as `diff`, a commit match its message; ranges count the fence as line 0. */
function commitContent(match: CommitMatch): { content: string; ranges: number[][] } {
  const preview = match.diffPreview;
  const content = preview ? `\`\`\`diff\n${preview.value}\n\`\`\`` : `\`\`\`COMMIT_EDITOR\n${match.message}\n\`\`\``;
  return { content, ranges: (preview?.ranges ?? match.ranges).map(([line, character, length]) => [line + 1, character, length]) };
}

function pathRange(offset: number, length: number): { start: Location; end: Location } {
  return { start: { offset, line: 0, column: offset }, end: { offset: offset + length, line: 0, column: offset + length } };
}

interface Location {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}
