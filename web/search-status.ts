/**
 * What the search page says about a search as a whole: progress (matches, time), that more results
 * exist than were searched for or shown, shards skipped or timed out, alerts and errors (a query
 * error with its position marked under the query).
 */
import { el } from './search-dom.js';
import type { Alert, Progress } from './search-events.js';
import { withFilter } from './search-filters.js';
import { searchUrl } from './web-paths.js';

export function progressText(progress: Progress, shown: number, display: number): string {
  const matches = `${progress.matchCount} ${progress.matchCount === 1 ? 'match' : 'matches'}`;
  const repos = progress.repositoriesCount === undefined ? '' : ` in ${progress.repositoriesCount} ${progress.repositoriesCount === 1 ? 'repository' : 'repositories'}`;
  const state = progress.done ? `${matches}${repos} in ${progress.durationMs} ms` : `Searching… ${matches} so far (${progress.durationMs} ms)`;
  return shown >= display ? `${state}; showing the first ${display} results` : state;
}

/** Notices for skipped shards, a hit limit and timeouts, each with its suggestion as a link adding it to the query. */
export function skippedNotices(progress: Progress, query: string): HTMLElement[] {
  return progress.skipped.map((s) => {
    const limit = s.reason === 'shard-match-limit';
    const suggestion = s.suggested ? el('a', { href: searchUrl(withFilter(query, s.suggested.queryExpression)) }, limit ? `add ${s.suggested.queryExpression}` : s.suggested.title) : null;
    return limit
      ? el('li', { class: 'notice info limit-hit' }, el('strong', {}, 'More results exist'), ': ', suggestion, ' or refine the query.')
      : el('li', { class: `notice ${s.severity}` }, el('strong', {}, s.title), ` ${s.message} `, suggestion);
  });
}

/** `query: … at position N`: the query's own error, marked where it is. */
export function errorPosition(description: string): number | null {
  const found = / at position (\d+)$/.exec(description);
  return found === null ? null : Number(found[1]);
}

export function alertBox(alert: Alert, query: string): HTMLElement {
  const position = errorPosition(alert.description);
  const box = el('div', { class: 'error', role: 'alert' }, el('strong', {}, alert.title), el('p', {}, alert.description));
  if (position !== null && position <= query.length) {
    box.append(el('pre', { class: 'error-position', 'aria-hidden': 'true' },
      el('code', {}, query.slice(0, position), el('mark', {}, query.slice(position, position + 1) || ' '), query.slice(position + 1)),
      '\n', `${' '.repeat(position)}^`));
  }
  return box;
}
