/**
 * The stream API's `symbol` match (reference §3.4): the file and its symbols as
 * `{url, name, containerName, kind, line}`, line 1-based as Sourcegraph's ctags lines are.
 */
import type { FileMatch } from '../../model/result.js';
import { symbolUrl } from '../../search/symbol-results.js';

export function symbolStreamMatch(match: FileMatch): Record<string, unknown> {
  return {
    type: 'symbol',
    path: match.path,
    repositoryID: match.repositoryID,
    repository: match.repository,
    branches: match.branches,
    commit: match.commit,
    ...(match.language ? { language: match.language } : {}),
    symbols: (match.symbols ?? []).map((symbol) => ({
      url: symbolUrl(match, symbol),
      name: symbol.name,
      containerName: symbol.containerName ?? '',
      kind: symbol.kind,
      line: symbol.range.startLine + 1,
    })),
  };
}
