/**
 * The filter sidebar from the stream's `filters` event, one section per kind (repositories,
 * languages, paths, symbol kinds). Each filter is a link to the search with the filter added, so it
 * works as a plain link too; the page turns a click into a search in place.
 */
import { el } from './search-dom.js';
import type { StreamFilter } from './search-events.js';
import { searchUrl } from './web-paths.js';

const SECTIONS: readonly (readonly [string, string])[] = [
  ['repo', 'Repositories'],
  ['lang', 'Languages'],
  ['file', 'Paths'],
  ['symbol type', 'Symbol kinds'],
];

/** The query with the filter added, unless it is already there. */
export function withFilter(query: string, filter: string): string {
  const words = query.trim().split(/\s+/);
  return words.includes(filter) ? query.trim() : `${query.trim()} ${filter}`.trim();
}

export function renderFilters(sidebar: HTMLElement, query: string, filters: readonly StreamFilter[], onPick: (query: string) => void): void {
  const sections = SECTIONS.map(([kind, title]) => {
    const ofKind = filters.filter((f) => f.kind === kind);
    if (ofKind.length === 0) return null;
    return el('section', { class: 'filter-section' }, el('h2', {}, title), el('ul', {}, ...ofKind.map((filter) => {
      const next = withFilter(query, filter.value);
      const link = el('a', { href: searchUrl(next), title: filter.value }, el('span', { class: 'label' }, filter.label),
        el('span', { class: 'count' }, `${filter.count}${filter.exhaustive ? '' : '+'}`));
      link.addEventListener('click', (event) => {
        if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
        event.preventDefault();
        onPick(next);
      });
      return el('li', {}, link);
    })));
  });
  sidebar.replaceChildren(...sections.filter((s) => s !== null));
  sidebar.hidden = sidebar.childElementCount === 0;
}
