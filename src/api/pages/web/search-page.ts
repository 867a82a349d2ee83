/**
 * The search page, `/search?q=…`. Without a query: the start page, with the query syntax at hand.
 */
import type { Authentication } from '../../../auth/principal.js';
import type { HttpRequest } from '../../../http/request.js';
import type { Reply } from '../../../http/respond.js';
import { html } from '../kit.js';
import { sendAppPage } from './layout.js';
import type { WebServices } from './services.js';
import type { Viewer } from './viewer.js';

const EXAMPLES: readonly (readonly [string, string])[] = [
  ['repo:^github\\.com/org/ lang:go func main', 'a literal in one language, in repositories by name'],
  ['/open\\(.*O_CREAT/ file:\\.c$', 'a regular expression in C files'],
  ['type:symbol HttpServer', 'symbol definitions by name'],
  ['type:diff author:alice select:commit.diff.added retry', 'lines added in commits'],
  ['foo AND (bar OR baz) -file:test', 'boolean operators and negated filters'],
];

export function searchPage(_services: WebServices, request: HttpRequest<Authentication>, viewer: Viewer, reply: Reply): void {
  const query = request.query.get('q') ?? '';
  sendAppPage(reply, 200, viewer.context, {
    title: 'Search',
    query,
    content: html`<h1>Search code</h1><p>Type a query in the box above. Some examples:</p>
<ul class="examples">${EXAMPLES.map(([q, what]) => html`<li><a href="/search?q=${encodeURIComponent(q)}"><code>${q}</code></a> <span class="muted">${what}</span></li>`)}</ul>`,
  });
}
