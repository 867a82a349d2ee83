/**
 * The web app's page: header (the search box, who is signed in), the content, the stylesheet and
 * scripts from this build's hashed asset path. Scripts only add to a page that already works
 * without them; the content security policy lets nothing but this server's own files run.
 */
import type { Reply } from '../../../http/respond.js';
import { csrfField, escapeHtml, FAVICON, html, type PageContext, type SafeHtml } from '../kit.js';
import { assetUrl, type InlineStyle } from './assets.js';

export interface AppPage {
  readonly title: string;
  readonly content: SafeHtml;
  /** The query to show in the header's search box (the search page's own, or the repository being browsed). */
  readonly query?: string;
  /** Module scripts of this page, by asset name (`search.js`), after the one every page runs. */
  readonly scripts?: readonly string[];
  /** More of the head (the search page's `<noscript>` redirect to its script-free results). */
  readonly head?: SafeHtml;
  /** The stylesheet inlined (the search page's, inlineSearchStyle) rather than linked; appHeaders must then be given it too. */
  readonly style?: InlineStyle;
}

/** Only this server's own files run or style the page; an inlined stylesheet is allowed by its hash alone. */
function contentSecurityPolicy(style?: InlineStyle): string {
  return `default-src 'none'; script-src 'self'; style-src 'self'${style === undefined ? '' : ` ${style.source}`}; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
}

const APP_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': contentSecurityPolicy(),
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
} as const;

/** Module script tags for `app.js` and the page's own scripts; `async` ones run as soon as they are loaded, mid-parse. */
export function appScripts(names: readonly string[], options: { readonly async?: boolean } = {}): SafeHtml {
  return html`${['app.js', ...names].map((name) => (options.async ? html`<script type="module" async src="${assetUrl(name)}"></script>` : html`<script type="module" src="${assetUrl(name)}"></script>`))}`;
}

/** The page up to its content: head, header, the opening of `<main>`. */
export function appPageStart(context: PageContext, page: Omit<AppPage, 'content'>, scripts: SafeHtml): string {
  const account = context.user === null
    ? html`<a href="/sign-in">Sign in</a>`
    : html`<a href="/settings">${context.user.username}</a><form method="post" action="/sign-out">${csrfField(context)}<button type="submit">Sign out</button></form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)} · Quarry</title>${FAVICON}${page.style === undefined ? `<link rel="stylesheet" href="${escapeHtml(assetUrl('app.css'))}">` : `<style>${page.style.css}</style>`}${scripts.text}${page.head?.text ?? ''}</head>
<body>${html`<header class="app"><a class="brand" href="/search">Quarry</a>
<form class="search" method="get" action="/search" role="search"><label class="sr-only" for="app-search">Search code</label>
<input type="search" id="app-search" name="q" value="${page.query ?? ''}" placeholder="Search code (press / to focus)" autocomplete="off" spellcheck="false"></form>
${account}</header>`.text}
<main class="app" id="main">`;
}

export const APP_PAGE_END = '</main></body></html>\n';

export function renderAppPage(context: PageContext, page: AppPage): string {
  return `${appPageStart(context, page, appScripts(page.scripts ?? []))}${page.content.text}${APP_PAGE_END}`;
}

/** The page's headers, with the pre-session cookie when it sets one; `style`: the page's inlined stylesheet. */
export function appHeaders(context: PageContext, style?: InlineStyle): Record<string, string> {
  const headers: Record<string, string> = style === undefined ? { ...APP_HEADERS } : { ...APP_HEADERS, 'Content-Security-Policy': contentSecurityPolicy(style) };
  if (context.setCookie !== null) headers['Set-Cookie'] = context.setCookie;
  return headers;
}

export function sendAppPage(reply: Reply, status: number, context: PageContext, page: AppPage): void {
  reply.send(status, renderAppPage(context, page), appHeaders(context, page.style));
}
