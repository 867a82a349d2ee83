/**
 * The search page's script: highlights the query as it is typed, and streams the results of
 * `/search?q=…` from the stream API into the page as they arrive, with the filter sidebar, progress,
 * notices and alerts. Searching again (the box, a filter) changes the URL, so every search is a link
 * and back and forward replay it. The page's first paint of each result kind is timed (Element
 * Timing: `elementtiming` on the first result and on the final status) for the benchmark.
 */
import { enhanceQueryBox, type QueryBox } from './query-box.js';
import { el } from './search-dom.js';
import type { Alert, Progress, StreamFilter, StreamMatch } from './search-events.js';
import { renderFilters } from './search-filters.js';
import { navigateWithKeys } from './search-keys.js';
import { resultItem } from './search-results.js';
import { alertBox, errorPosition, progressText, skippedNotices } from './search-status.js';
import { searchUrl } from './web-paths.js';

/** Results sent at most; the stream keeps counting past it. */
const DISPLAY = 500;
/** Longer lines are cut by the server: minified files would otherwise fill the page. */
const MAX_LINE_LENGTH = 400;

interface Parts {
  readonly box: QueryBox;
  readonly status: HTMLElement;
  readonly alerts: HTMLElement;
  readonly results: HTMLOListElement;
  readonly filters: HTMLElement;
  readonly notices: HTMLElement;
}

function byId<T extends HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

let running: EventSource | null = null;

function search(parts: Parts, query: string): void {
  running?.close();
  document.title = `${query} - Search · Quarry`;
  for (const part of [parts.alerts, parts.results, parts.notices]) part.replaceChildren();
  parts.filters.replaceChildren();
  parts.filters.hidden = true;
  parts.status.textContent = 'Searching…';
  let shown = 0;
  const params = new URLSearchParams({ q: query, v: 'V3', display: String(DISPLAY), 'max-line-len': String(MAX_LINE_LENGTH) });
  const source = new EventSource(`/.api/search/stream?${params}`);
  running = source;
  const read = <T>(event: Event): T => JSON.parse((event as MessageEvent<string>).data) as T;
  source.addEventListener('matches', (event) => {
    const fragment = document.createDocumentFragment();
    for (const match of read<StreamMatch[]>(event)) {
      const item = resultItem(match);
      if (shown === 0) item.querySelector('a')?.setAttribute('elementtiming', 'first-result');
      fragment.append(item);
      shown++;
    }
    parts.results.append(fragment);
  });
  source.addEventListener('progress', (event) => {
    const progress = read<Progress>(event);
    if (!progress.done) {
      parts.status.textContent = progressText(progress, shown, DISPLAY);
      return;
    }
    const text = shown === 0 && progress.matchCount === 0 && parts.alerts.childElementCount === 0 ? `No results (${progress.durationMs} ms).` : progressText(progress, shown, DISPLAY);
    parts.status.replaceChildren(el('span', { elementtiming: 'search-done' }, text));
    parts.notices.replaceChildren(...skippedNotices(progress, query));
  });
  source.addEventListener('filters', (event) => {
    renderFilters(parts.filters, query, read<StreamFilter[]>(event), (next) => go(parts, next));
  });
  source.addEventListener('alert', (event) => {
    const alert = read<Alert>(event);
    parts.alerts.append(alertBox(alert, query));
    parts.box.markError(errorPosition(alert.description));
  });
  source.addEventListener('error', (event) => {
    // A server-sent `error` event carries a message; a bare Event is the connection failing.
    const message = event instanceof MessageEvent ? read<{ message: string }>(event).message : 'The search could not be run: the connection to the server failed (are you still signed in?).';
    parts.alerts.append(el('div', { class: 'error', role: 'alert' }, el('strong', {}, 'Search failed'), el('p', {}, message)));
    parts.status.textContent = '';
    source.close();
  });
  source.addEventListener('done', () => source.close());
}

/** A new search from the page: its URL becomes a history entry. */
function go(parts: Parts, query: string): void {
  parts.box.input.value = query;
  parts.box.input.dispatchEvent(new Event('input'));
  history.pushState(null, '', searchUrl(query));
  search(parts, query);
}

function start(): void {
  const input = byId<HTMLInputElement>('app-search');
  if (input === null) return;
  const box = enhanceQueryBox(input);
  const status = byId('search-status');
  const alerts = byId('search-alerts');
  const results = byId<HTMLOListElement>('search-results');
  const filters = byId('search-filters');
  const notices = byId('search-notices');
  // The start page has no results area: its form submits as a plain form.
  if (status === null || alerts === null || results === null || filters === null || notices === null) return;
  const parts: Parts = { box, status, alerts, results, filters, notices };
  navigateWithKeys(results);
  input.form?.addEventListener('submit', (event) => {
    const query = input.value.trim();
    if (query === '') return;
    event.preventDefault();
    go(parts, query);
  });
  window.addEventListener('popstate', () => {
    const query = new URLSearchParams(location.search).get('q') ?? '';
    if (query.trim() === '') return location.reload();
    input.value = query;
    input.dispatchEvent(new Event('input'));
    search(parts, query);
  });
  const query = new URLSearchParams(location.search).get('q') ?? '';
  if (query.trim() !== '') search(parts, query);
}

start();
