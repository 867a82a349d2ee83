/**
 * The search page's script: highlights the query as it is typed, and shows a search's results as
 * they arrive, with the filter sidebar, progress, notices and alerts: the page's own search from the
 * events the server writes into the page after its first results (search-islands.ts), later ones
 * from the stream API. Searching again (the box, a filter) changes the URL, so every search is a
 * link and back and forward replay it. The first result and the final status carry `elementtiming`,
 * so their paint is timed (bench/web-search.bench.ts).
 */
import { enhanceQueryBox, type QueryBox } from './query-box.js';
import { el } from './search-dom.js';
import type { Alert, Progress, StreamFilter, StreamMatch } from './search-events.js';
import { renderFilters } from './search-filters.js';
import { navigateWithKeys } from './search-keys.js';
import { resultItem, showMore } from './search-results.js';
import { alertBox, errorPosition, progressText, skippedNotices } from './search-status.js';
import { readPageEvents } from './search-islands.js';
import { readEvents, type EventHandler } from './search-stream.js';
import { searchUrl } from './web-paths.js';

interface Parts {
  readonly box: QueryBox;
  readonly status: HTMLElement;
  readonly alerts: HTMLElement;
  readonly results: HTMLOListElement;
  readonly filters: HTMLElement;
  readonly notices: HTMLElement;
  /** The stream request for this page's query (the server's parameters): later searches replace its q. */
  readonly streamTemplate: string;
}

/** Where a search's events come from: the stream API, or the page itself for the search the server ran with it. */
type EventSource = (signal: AbortSignal, onEvent: EventHandler) => Promise<void>;

function byId<T extends HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

let running: AbortController | null = null;

/** The stream request for `query`: the page's with its q replaced, so the parameters are the server's. */
function streamUrl(template: string, query: string): string {
  const url = new URL(template, location.href);
  url.searchParams.set('q', query);
  return `${url.pathname}${url.search}`;
}

/** A new search, its events from the stream API. */
function search(parts: Parts, query: string): void {
  running?.abort();
  document.title = `${query} - Search · Quarry`;
  for (const part of [parts.alerts, parts.results, parts.notices]) part.replaceChildren();
  parts.filters.replaceChildren();
  parts.filters.hidden = true;
  parts.status.textContent = 'Searching…';
  const url = streamUrl(parts.streamTemplate, query);
  show(parts, query, (signal, onEvent) => readEvents(url, signal, onEvent));
}

/** Shows one search's events as they come, after the results already in the list. */
function show(parts: Parts, query: string, source: EventSource): void {
  const controller = new AbortController();
  running = controller;
  let received = parts.results.childElementCount;
  const display = Number(new URL(parts.streamTemplate, location.href).searchParams.get('display') ?? Infinity);
  const render = renderQueue(parts.results, controller.signal, received);
  const handlers: Readonly<Record<string, (data: string) => void | Promise<void>>> = {
    matches(data) {
      const matches = JSON.parse(data) as StreamMatch[];
      const first = received === 0;
      received += matches.length;
      render.push(matches);
      // A whole fast search can arrive in one read: the first results are painted before the rest is parsed.
      if (first) return afterNextPaint();
    },
    progress(data) {
      const progress = JSON.parse(data) as Progress;
      if (!progress.done) {
        parts.status.textContent = progressText(progress, received, display);
        return;
      }
      const text = received === 0 && progress.matchCount === 0 && parts.alerts.childElementCount === 0 ? `No results (${progress.durationMs} ms).` : progressText(progress, received, display);
      render.whenRendered(() => {
        parts.status.replaceChildren(el('span', { elementtiming: 'search-done' }, text));
        parts.notices.replaceChildren(...skippedNotices(progress, query));
      });
    },
    filters(data) {
      renderFilters(parts.filters, query, JSON.parse(data) as StreamFilter[], (next) => go(parts, next));
    },
    alert(data) {
      const alert = JSON.parse(data) as Alert;
      parts.alerts.append(alertBox(alert, query));
      parts.box.markError(errorPosition(alert.description));
    },
    error(data) {
      failed(parts, (JSON.parse(data) as { message: string }).message);
    },
    // The page's own search only: the data of the results already in its HTML, in their order.
    rendered(data) {
      (JSON.parse(data) as StreamMatch[]).forEach((match, index) => {
        const item = parts.results.children[index];
        if (item instanceof HTMLElement) serverResults.set(item, match);
      });
    },
  };
  source(controller.signal, (name, data) => handlers[name]?.(data)).catch((err: unknown) => {
    if (!controller.signal.aborted) failed(parts, `The search could not be run: ${(err as Error).message} (are you still signed in?).`);
  });
}

function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** Results rendered in the first slice, painted before the rest are built. */
const FIRST_SLICE = 10;
/** Results rendered per animation frame after it. */
const SLICE = 60;

/**
 * Renders matches into the list a slice at a time, one slice per frame, so the first results are
 * painted at once even when a whole search arrives in one read (a fast search, the page's own).
 */
interface RenderQueue {
  push(matches: readonly StreamMatch[]): void;
  /** Runs `then` once every match pushed so far is in the list. */
  whenRendered(then: () => void): void;
}

function renderQueue(list: HTMLOListElement, signal: AbortSignal, alreadyRendered: number): RenderQueue {
  const pending: StreamMatch[] = [];
  let rendered = alreadyRendered;
  let scheduled = false;
  let waiting: (() => void) | null = null;
  const flush = (): void => {
    scheduled = false;
    if (signal.aborted) return;
    const fragment = document.createDocumentFragment();
    for (const match of pending.splice(0, rendered === 0 ? FIRST_SLICE : SLICE)) {
      const item = resultItem(match);
      if (rendered === 0) item.querySelector('a')?.setAttribute('elementtiming', 'first-result');
      fragment.append(item);
      rendered++;
    }
    list.append(fragment);
    if (pending.length > 0) schedule();
    else waiting?.();
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(flush);
  };
  return {
    push(matches) {
      pending.push(...matches);
      if (rendered === 0) flush();
      else schedule();
    },
    whenRendered(then) {
      if (pending.length === 0) then();
      else waiting = then;
    },
  };
}

function failed(parts: Parts, message: string): void {
  parts.alerts.append(el('div', { class: 'error', role: 'alert' }, el('strong', {}, 'Search failed'), el('p', {}, message)));
  parts.status.textContent = '';
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
  const streamTemplate = results?.dataset['stream'];
  if (status === null || alerts === null || results === null || filters === null || notices === null || streamTemplate === undefined) return;
  const parts: Parts = { box, status, alerts, results, filters, notices, streamTemplate };
  navigateWithKeys(results);
  showMoreOfServerResults(results);
  input.form?.addEventListener('submit', (event) => {
    const query = input.value.trim();
    if (query === '') return;
    event.preventDefault();
    go(parts, query);
  });
  window.addEventListener('popstate', () => {
    const query = (new URLSearchParams(location.search).get('q') ?? '').trim();
    if (query === '') return location.reload();
    input.value = query;
    input.dispatchEvent(new Event('input'));
    search(parts, query);
  });
  // The page's own search: the server ran it with the page, whose first results are already in the list.
  const events = byId('search-events');
  const query = (new URLSearchParams(location.search).get('q') ?? '').trim();
  if (events === null || query === '') return;
  show(parts, query, async (signal, onEvent) => {
    stopLoadingPage(signal);
    // The server's first results are painted before the script reads (and renders) the rest.
    await afterNextPaint();
    return readPageEvents(events, signal, onEvent);
  });
}

/** Leaving the page's own search for another: the rest of the page (and so its search on the server) is not loaded. */
function stopLoadingPage(signal: AbortSignal): void {
  signal.addEventListener('abort', () => {
    if (document.readyState === 'loading') window.stop();
  });
}

/** The data of the results the server rendered into the page (its `rendered` event), by their list item. */
const serverResults = new WeakMap<HTMLElement, StreamMatch>();

/** The server's results hold their first lines only; "show more" builds the rest from their data. */
function showMoreOfServerResults(results: HTMLElement): void {
  results.addEventListener('click', (event) => {
    const item = (event.target as Element).closest('button.more')?.closest('li.result');
    const match = item instanceof HTMLElement ? serverResults.get(item) : undefined;
    if (item instanceof HTMLElement && match !== undefined) showMore(item, match);
  });
}

start();
