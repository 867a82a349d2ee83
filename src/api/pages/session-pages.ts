/**
 * Sign-in and sign-out, leading to Settings (settings-pages.ts). Sign-in takes a username and
 * password (accounts made with `quarry users create --password-stdin` or by an admin), is
 * rate-limited per username and per address, and always starts a new session.
 */
import type { IdentityProvider } from '../../auth/oauth/service.js';
import type { Route } from '../../http/routes.js';
import { clearedSessionCookie, csrfField, html, localPath, pageContext, readForm, redirect, refuseForm, sendPage, sessionCookie, type PageContext, type SafeHtml } from './kit.js';

export const SIGN_IN_PATH = '/sign-in';
export const SETTINGS_PATH = '/settings';

/** Where to send a visitor who must sign in first, coming back to `returnTo` afterwards. */
export function signInLocation(returnTo: string): string {
  return `${SIGN_IN_PATH}?return_to=${encodeURIComponent(returnTo)}`;
}

/**
 * The form; after a refusal the fields say they are invalid and point at the message, and the focus
 * waits in Password (the username is kept), as it starts in Username on a fresh form.
 */
function signInForm(context: PageContext, returnTo: string, username: string, problem: string | null): SafeHtml {
  const invalid = problem === null ? '' : html` aria-invalid="true" aria-describedby="sign-in-problem"`;
  return html`<h1>Sign in to Quarry</h1>
${problem === null ? '' : html`<p class="error" role="alert" id="sign-in-problem">${problem}</p>`}
<form method="post" action="${SIGN_IN_PATH}">
${csrfField(context)}<input type="hidden" name="return_to" value="${returnTo}">
<label for="username">Username</label><input id="username" name="username" type="text" autocomplete="username" required value="${username}"${invalid}${problem === null ? html` autofocus` : ''}>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required${invalid}${problem === null ? '' : html` autofocus`}>
<button class="primary" type="submit">Sign in</button>
</form>`;
}

export function sessionRoutes(idp: IdentityProvider): Route[] {
  return [
    {
      method: 'GET', path: SIGN_IN_PATH, handler(request, reply) {
        const context = pageContext(request, idp);
        const returnTo = localPath(request.query.get('return_to'));
        if (context.user !== null) return redirect(reply, returnTo);
        sendPage(reply, 200, context, 'Sign in', signInForm(context, returnTo, '', null));
      },
    },
    {
      method: 'POST', path: SIGN_IN_PATH, async handler(request, reply) {
        const context = pageContext(request, idp);
        const form = readForm(request, context);
        if (form === null) return refuseForm(reply, context);
        const returnTo = localPath(form.get('return_to'));
        const username = (form.get('username') ?? '').trim();
        const result = await idp.signIn({ username, password: form.get('password') ?? '', address: request.remoteAddress, previousSessionId: context.sessionId });
        if (result.ok) return redirect(reply, returnTo, { 'Set-Cookie': sessionCookie(context, result.sessionId, idp.sessionLifetimeSeconds()) });
        if (result.retryAfterSeconds > 0) {
          const wait = `Too many failed sign-ins. Try again in ${Math.ceil(result.retryAfterSeconds / 60)} minute${result.retryAfterSeconds > 60 ? 's' : ''}.`;
          return sendPage(reply, 429, context, 'Sign in', signInForm(context, returnTo, username, wait), { 'Retry-After': String(result.retryAfterSeconds) });
        }
        sendPage(reply, 401, context, 'Sign in', signInForm(context, returnTo, username, 'The username or password is wrong.'));
      },
    },
    {
      method: 'POST', path: '/sign-out', handler(request, reply) {
        const context = pageContext(request, idp);
        if (readForm(request, context) === null) return refuseForm(reply, context);
        idp.signOut(context.sessionId);
        redirect(reply, SIGN_IN_PATH, { 'Set-Cookie': clearedSessionCookie(context) });
      },
    },
  ];
}
