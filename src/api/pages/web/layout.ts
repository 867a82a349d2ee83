/**
 * The web app's page: header (the search box, who is signed in), the content, the stylesheet and
 * scripts from this build's hashed asset path. Scripts only add to a page that already works
 * without them; the content security policy lets nothing but this server's own files run.
 */
import type { Reply } from '../../../http/respond.js';
import { csrfField, escapeHtml, html, type PageContext, type SafeHtml } from '../kit.js';
import { assetUrl } from './assets.js';

export interface AppPage {
  readonly title: string;
  readonly content: SafeHtml;
  /** The query to show in the header's search box (the search page's own, or the repository being browsed). */
  readonly query?: string;
  /** Module scripts of this page, by asset name (`search.js`), after the one every page runs. */
  readonly scripts?: readonly string[];
  /** More of the head (the search page's `<noscript>` redirect to its script-free results). */
  readonly head?: SafeHtml;
}

const APP_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
} as const;

export function renderAppPage(context: PageContext, page: AppPage): string {
  const account = context.user === null
    ? html`<a href="/sign-in">Sign in</a>`
    : html`<a href="/settings">${context.user.username}</a><form method="post" action="/sign-out">${csrfField(context)}<button type="submit">Sign out</button></form>`;
  const scripts = ['app.js', ...(page.scripts ?? [])].map((name) => html`<script type="module" src="${assetUrl(name)}"></script>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)} · Quarry</title><link rel="stylesheet" href="${escapeHtml(assetUrl('app.css'))}">${html`${scripts}`.text}${page.head?.text ?? ''}</head>
<body>${html`<header class="app"><a class="brand" href="/search">Quarry</a>
<form class="search" method="get" action="/search" role="search"><label class="sr-only" for="app-search">Search code</label>
<input type="search" id="app-search" name="q" value="${page.query ?? ''}" placeholder="Search code (press / to focus)" autocomplete="off" spellcheck="false"></form>
${account}</header>`.text}
<main class="app" id="main">${page.content.text}</main></body></html>
`;
}

export function sendAppPage(reply: Reply, status: number, context: PageContext, page: AppPage): void {
  const cookie: Record<string, string> = context.setCookie === null ? {} : { 'Set-Cookie': context.setCookie };
  reply.send(status, renderAppPage(context, page), { ...APP_HEADERS, ...cookie });
}
