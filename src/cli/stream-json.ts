/**
 * Engine matches in the stream API's JSON shapes (reference §3.4): what `quarry search --json`
 * prints and, later, what the streaming endpoint sends.
 */
import type { SearchMatch } from '../model/result.js';

export function toStreamMatch(match: SearchMatch): Record<string, unknown> {
  if (match.type === 'repo') {
    return { type: 'repo', repositoryID: match.repositoryID, repository: match.repository, branches: match.branches, fork: match.fork, archived: match.archived };
  }
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

function pathRange(offset: number, length: number): { start: Location; end: Location } {
  return { start: { offset, line: 0, column: offset }, end: { offset: offset + length, line: 0, column: offset + length } };
}

interface Location {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}
