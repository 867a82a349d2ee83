/**
 * The page kit: HTML escaped by construction (`html` template), one small layout with inline CSS
 * (no CDN, no script), cookies (HttpOnly, SameSite=Lax, Secure and `__Host-` over TLS), the
 * sign-in session read from its cookie, and CSRF tokens on every form, tied to the session (or,
 * before sign-in, to a pre-session cookie) and checked with the request's Origin.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Account, IdentityProvider } from '../../auth/oauth/service.js';
import { cookieName, parseCookies, PRESESSION_COOKIE as PRESESSION, SESSION_COOKIE as SESSION } from '../../auth/session-cookie.js';
import type { HttpRequest } from '../../http/request.js';
import type { Reply } from '../../http/respond.js';

/** Markup that is already safe; everything else interpolated into `html` is escaped. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Interpolated = SafeHtml | string | number | null | undefined | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, text, i) => out + text + (i < values.length ? render(values[i]!) : ''), ''));
}

/** A request of a page, with who is signed in and the secret its forms' CSRF tokens derive from. */
export interface PageContext {
  readonly origin: string;
  readonly secure: boolean;
  readonly user: Account | null;
  /** The session cookie's value when it names a live session. */
  readonly sessionId: string | null;
  /** The CSRF token every form of this page carries. */
  readonly csrf: string;
  /** A pre-session cookie to set (an anonymous visitor without one), or null. */
  readonly setCookie: string | null;
}

function cookie(name: string, value: string, secure: boolean, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

function csrfOf(secret: string): string {
  return createHash('sha256').update(`quarry-csrf\0${secret}`).digest('base64url');
}

export function pageContext(request: HttpRequest, idp: IdentityProvider): PageContext {
  const origin = idp.origin(request.headers);
  const secure = idp.overTls(request.headers);
  const cookies = parseCookies(request.headers['cookie']);
  const presented = cookies.get(cookieName(SESSION, secure)) ?? null;
  const user = idp.signedInUser(presented);
  const sessionId = user === null ? null : presented;
  let presession = cookies.get(cookieName(PRESESSION, secure)) ?? null;
  let setCookie: string | null = null;
  if (sessionId === null && (presession === null || !/^[A-Za-z0-9_-]{43}$/.test(presession))) {
    presession = randomBytes(32).toString('base64url');
    setCookie = cookie(cookieName(PRESESSION, secure), presession, secure, 86_400);
  }
  return { origin, secure, user, sessionId, csrf: csrfOf(sessionId ?? presession!), setCookie };
}

export function sessionCookie(context: PageContext, sessionId: string, maxAgeSeconds: number): string {
  return cookie(cookieName(SESSION, context.secure), sessionId, context.secure, maxAgeSeconds);
}

export function clearedSessionCookie(context: PageContext): string {
  return cookie(cookieName(SESSION, context.secure), '', context.secure, 0);
}

/**
 * A posted form, if it is one of ours: same-origin when the browser says where it came from, and
 * carrying this session's (or pre-session's) CSRF token. Null otherwise.
 */
export function readForm(request: HttpRequest, context: PageContext): URLSearchParams | null {
  const origin = request.headers['origin'];
  if (origin !== undefined && origin !== context.origin) return null;
  if (!(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return null;
  const form = new URLSearchParams(Buffer.from(request.body).toString('utf8'));
  const token = Buffer.from(form.get('csrf') ?? '');
  const expected = Buffer.from(context.csrf);
  return context.setCookie === null && token.length === expected.length && timingSafeEqual(token, expected) ? form : null;
}

/** A path on this server to go back to after sign-in; anything else (another host, `//evil`) is refused for `/settings`. */
export function localPath(value: string | null): string {
  if (value === null || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || /[\u0000-\u001f\\]/.test(value)) return '/settings';
  return value;
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#f6f7f9}
header{background:#24292f;color:#fff;padding:8px 20px;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center}
header a,header button{color:#fff;text-decoration:none;background:none;border:0;font:inherit;cursor:pointer;padding:0}
header form{display:inline}header form.search{flex:1;min-width:180px;display:flex}
header input[type=search]{flex:1;padding:5px 10px;border-radius:6px;border:1px solid #8c959f;background:#fff;color:#1d1d1f;font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:2px solid #0b6bcb;outline-offset:2px}
header a:focus-visible,header button:focus-visible,header input:focus-visible{outline-color:#fff}
a{color:#0757b3}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}main{max-width:980px;margin:32px auto;background:#fff;padding:24px 32px;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:22px;margin-top:0}label{display:block;margin:12px 0 4px;font-weight:600}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:8px;border:1px solid #bbb;border-radius:4px;font:inherit}
button.primary,button.secondary{margin-top:16px;padding:8px 18px;border-radius:4px;font:inherit;cursor:pointer}
button.primary{background:#0b6bcb;color:#fff;border:1px solid #0b6bcb}button.secondary{background:#fff;border:1px solid #888}
.error{background:#fde8e8;border:1px solid #e0a0a0;padding:8px 12px;border-radius:4px}
code{background:#eef;padding:1px 4px;border-radius:3px}dt{font-weight:600}dd{margin:0 0 8px}
table{border-collapse:collapse;width:100%;margin:12px 0}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #ddd;vertical-align:top}
td form{display:inline}td button{margin:0 4px 0 0;padding:3px 10px;border-radius:4px;border:1px solid #888;background:#fff;font:inherit;cursor:pointer}
nav.settings{display:flex;flex-wrap:wrap;gap:4px 14px;margin:-8px 0 18px;padding-bottom:8px;border-bottom:1px solid #ddd}nav.settings a[aria-current]{font-weight:700}
.shown-once{background:#e8f6e8;border:1px solid #9c9;padding:8px 12px;border-radius:4px}.shown-once code{word-break:break-all;font-size:14px}
select{padding:6px;font:inherit}fieldset{border:1px solid #ddd;border-radius:4px;margin:12px 0}fieldset label{font-weight:400;margin:4px 0}td code{word-break:break-all}
@media (max-width:640px){header{padding:8px 12px}main{margin:12px 8px;padding:16px}}`;

/**
 * The page: layout, the header (the brand and a code search box as on every page of the web app,
 * the debug console, who is signed in, Settings, sign-out), and the content.
 */
export function layout(title: string, context: PageContext, content: SafeHtml): string {
  const nav = context.user === null ? html`<a href="/sign-in">Sign in</a>` : html`<span>${context.user.username}</span>
<a href="/settings">Settings</a><form method="post" action="/sign-out">${csrfField(context)}<button type="submit">Sign out</button></form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Quarry</title>${FAVICON}<style>${STYLE}</style></head>
<body>${html`<header><a class="brand" href="/search"><b>Quarry</b></a>
<form class="search" method="get" action="/search" role="search"><label class="sr-only" for="app-search">Search code</label>
<input type="search" id="app-search" name="q" placeholder="Search code" autocomplete="off" spellcheck="false"></form>
<a href="/debug/console">Debug console</a>${nav}</header>`.text}
<main>${content.text}</main></body></html>
`;
}

/**
 * An empty icon, so the browser does not ask for /favicon.ico, which this server does not have
 * (each page would log the 404 in the console).
 */
export const FAVICON = '<link rel="icon" href="data:,">';

export function csrfField(context: PageContext): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${context.csrf}">`;
}

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  // No script runs on these pages, none may frame them (clickjacking a consent), and no other site sees a referrer
  // (no-referrer would make Chromium post forms with `Origin: null`, which the CSRF check refuses).
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
} as const;

export function sendPage(reply: Reply, status: number, context: PageContext, title: string, content: SafeHtml, headers: Readonly<Record<string, string>> = {}): void {
  const cookieHeader: Record<string, string> = context.setCookie === null ? {} : { 'Set-Cookie': context.setCookie };
  reply.send(status, layout(title, context, content), { ...PAGE_HEADERS, ...cookieHeader, ...headers });
}

/** After a form: 303, so a reload does not post again. */
export function redirect(reply: Reply, location: string, headers: Readonly<Record<string, string>> = {}): void {
  reply.send(303, '', { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin', ...headers });
}

/** The answer to a form without a valid CSRF token or from another origin. */
export function refuseForm(reply: Reply, context: PageContext): void {
  sendPage(reply, 403, context, 'Form expired', html`<h1>This form expired</h1><p class="error">The form was not sent from this site's own page, or
your sign-in changed since it was shown. Go back, reload the page and try again.</p>`);
}
