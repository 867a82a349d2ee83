/**
 * The search page, `/search?q=…`. Without a query: the start page, with the query syntax at hand.
 * With one: one streamed response running the search as the stream API does, its first results in
 * the HTML and the rest for the page's script (search-page-stream.ts, web/search.ts), which streams
 * later searches from the stream API; a browser without JavaScript follows the head's `<noscript>`
 * redirect to `&static=1`, the same search run once on the server and rendered as HTML (search-static.ts).
 */
import type { Authentication } from '../../../auth/principal.js';
import type { HttpRequest } from '../../../http/request.js';
import type { Reply } from '../../../http/respond.js';
import { parseStreamParams } from '../../stream/params.js';
import { STREAM_PATH } from '../../stream/route.js';
import { html } from '../kit.js';
import { assetUrl, inlineSearchStyle, webAssets } from './assets.js';
import { APP_PAGE_END, appHeaders, appPageStart, appScripts, sendAppPage } from './layout.js';
import { streamSearchPage, type StreamedPage } from './search-page-stream.js';
import { RESULT_SHAPE, staticResults } from './search-static.js';
import type { WebServices } from './services.js';
import type { Viewer } from './viewer.js';
import { searchUrl } from './web-paths.js';

/**
 * The stream request of the page (and its script's later searches): at most 500 results (the count
 * goes on), long lines cut, chunks with their context, as the page without JavaScript shows them.
 */
const STREAM_PARAMS = { v: 'V3', display: '500', 'max-line-len': String(RESULT_SHAPE.maxLineLen), cm: 'true', cl: String(RESULT_SHAPE.contextLines) };

/** The search page's modules, fetched at once rather than one import level after another. */
function searchModules(): string[] {
  return [...webAssets().files.keys()].filter((name) => /^(search|query-)[\w-]*\.js$/.test(name) || name === 'web-paths.js' || name === 'result-rows.js' || name === 'app.js');
}

const EXAMPLES: readonly (readonly [string, string])[] = [
  ['repo:^github\\.com/org/ lang:go func main', 'a literal in one language, in repositories by name'],
  ['/open\\(.*O_CREAT/ file:\\.c$', 'a regular expression in C files'],
  ['type:symbol HttpServer', 'symbol definitions by name'],
  ['type:diff author:alice select:commit.diff.added retry', 'lines added in commits'],
  ['foo AND (bar OR baz) -file:test', 'boolean operators and negated filters'],
];

export async function searchPage(services: WebServices, request: HttpRequest<Authentication>, viewer: Viewer, reply: Reply): Promise<void> {
  const query = (request.query.get('q') ?? '').trim();
  if (query === '') {
    return sendAppPage(reply, 200, viewer.context, {
      title: 'Search',
      scripts: ['search.js'],
      content: html`<h1>Search code</h1><p>Type a query in the box above. Some examples:</p>
<ul class="examples">${EXAMPLES.map(([q, what]) => html`<li><a href="${searchUrl(q)}"><code>${q}</code></a> <span class="muted">${what}</span></li>`)}</ul>`,
    });
  }
  const title = `${query} - Search`;
  const heading = html`<h1 class="sr-only">Results for ${query}</h1>`;
  if (request.query.get('static') === '1') {
    return sendAppPage(reply, 200, viewer.context, {
      title, query,
      content: html`${heading}<div class="search-page static">${await staticResults(services, viewer, query, request.signal)}</div>`,
    });
  }
  const scriptFree = `${searchUrl(query)}&static=1`;
  const streamQuery = new URLSearchParams({ q: query, ...STREAM_PARAMS });
  const params = parseStreamParams(streamQuery);
  if ('error' in params) return reply.text(400, params.error);
  const style = inlineSearchStyle();
  const page: StreamedPage = {
    start: appPageStart(viewer.context, {
      title, query, style,
      head: html`<noscript><meta http-equiv="refresh" content="0; url=${scriptFree}"></noscript>
${searchModules().map((name) => html`<link rel="modulepreload" href="${assetUrl(name)}">`)}`,
    }, html``) + html`${heading}<div class="search-page">
<p class="search-status" id="search-status" role="status" aria-live="polite">Searching…<noscript> <a href="${scriptFree}">Show the results without JavaScript</a></noscript></p>
<div id="search-alerts"></div>
<div class="search-columns"><aside class="search-filters" id="search-filters" aria-label="Filters" hidden></aside>
<div class="search-main"><ul class="notices" id="search-notices"></ul><ol class="results" id="search-results" aria-label="Results" data-stream="${`${STREAM_PATH}?${streamQuery}`}" data-in-page="">`.text,
    shellEnd: `</ol></div></div></div>${appScripts(['search.js'], { async: true }).text}`,
    eventsStart: '<div id="search-events" hidden>\n',
    end: `</div>${APP_PAGE_END}`,
  };
  const writer = reply.stream(200, appHeaders(viewer.context, style));
  const run = { search: services.search, readFile: services.readFile, canRead: viewer.principal.canRead, signal: request.signal };
  await streamSearchPage(run, params, writer, page);
}
