/**
 * The pages a person meets during an authorization: consent at `/.auth/idp/oauth/authorize` (which
 * client, its redirect host, the metadata document it came from and a warning when that document
 * only returns to loopback; which scopes, which resource; allowing is remembered) and `/device`,
 * where a user code from a device is approved. Both ask for sign-in first and come back after it.
 */
import { AUTHORIZATION_PARAMS, type AuthorizationRequest } from '../../auth/oauth/authorization-request.js';
import { DEVICE_PAGE_PATH } from '../../auth/oauth/device-authorization.js';
import { OAUTH_BASE } from '../../auth/oauth/metadata.js';
import type { IdentityProvider } from '../../auth/oauth/service.js';
import type { Reply } from '../../http/respond.js';
import type { Route } from '../../http/routes.js';
import { csrfField, html, pageContext, readForm, redirect, refuseForm, sendPage, type PageContext, type SafeHtml } from '../pages/kit.js';
import { signInLocation } from '../pages/session-pages.js';

export const AUTHORIZE_PATH = `${OAUTH_BASE}/authorize`;

const SCOPE_TEXT: Readonly<Record<string, string>> = {
  mcp: 'Use the MCP tools as you: search and read the repositories you can read',
  'user:all': 'Full access to the API as you: everything your account can do',
  openid: 'Know your user id', profile: 'Know your username and name', email: 'Know your email address',
  offline_access: 'Stay connected when you are away (refresh tokens)',
};

function scopeList(scopes: readonly string[]): SafeHtml {
  return html`<ul>${scopes.map((s) => html`<li><code>${s}</code>: ${SCOPE_TEXT[s] ?? ''}</li>`)}</ul>`;
}

function resourceText(origin: string, resource: string): string {
  return resource === '/' ? `all of ${origin}` : `${origin}${resource}`;
}

function isLoopbackUri(uri: string): boolean {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(uri).hostname);
  } catch {
    return false;
  }
}

function consentPage(context: PageContext, request: AuthorizationRequest, params: URLSearchParams): SafeHtml {
  const hidden = AUTHORIZATION_PARAMS.flatMap((name) => {
    const value = params.get(name);
    return value === null ? [] : [html`<input type="hidden" name="${name}" value="${value}">`];
  });
  const { client } = request;
  const origin = client.metadataDocument === undefined ? (client.dynamic ? ' (registered itself with this server)' : '')
    : html` (described by its document at <code>${client.id}</code>)`;
  return html`<h1>Authorize ${client.name}?</h1>
<p><b>${client.name}</b>${origin} wants access to your account
<b>${context.user?.username ?? ''}</b>. You will be sent back to <code>${new URL(request.redirectUri).host || request.redirectUri}</code>.</p>
${client.metadataDocument !== undefined && client.redirectUris.every(isLoopbackUri) ? html`<p class="error" role="alert">This application only returns to your own computer (${new URL(request.redirectUri).hostname}): any program running there could be using its name. Allow only if you just started ${client.name} yourself.</p>` : ''}
<p>It asks to:</p>${scopeList(request.scopes)}
<p>on <code>${resourceText(context.origin, request.resource)}</code>.</p>
<form method="post" action="${AUTHORIZE_PATH}">${csrfField(context)}${hidden}
<button class="primary" type="submit" name="decision" value="allow">Allow</button>
<button class="secondary" type="submit" name="decision" value="deny">Deny</button>
</form>`;
}

async function answerAuthorization(idp: IdentityProvider, reply: Reply, context: PageContext, params: URLSearchParams, decision: string | null): Promise<void> {
  const failed = (message: string) => sendPage(reply, 400, context, 'Authorization failed', html`<h1>Authorization failed</h1><p class="error">${message}</p>`);
  const clientIds = params.getAll('client_id');
  const documentProblem = clientIds.length === 1 ? await idp.prepareClient(clientIds[0]!) : null;
  if (documentProblem !== null) return failed(documentProblem);
  const check = idp.checkAuthorization(params, context.origin);
  if (check.kind === 'show') return failed(check.message);
  if (check.kind === 'redirect') return reply.send(302, '', { Location: check.location, 'Cache-Control': 'no-store' });
  if (context.user === null) return redirect(reply, signInLocation(`${AUTHORIZE_PATH}?${params.toString()}`));
  const { request: authorization } = check;
  if (decision !== null) return redirect(reply, idp.decide(context.user, authorization, context.origin, decision === 'allow'));
  if (idp.consented(context.user, authorization) && !authorization.promptConsent) {
    return reply.send(302, '', { Location: idp.decide(context.user, authorization, context.origin, true), 'Cache-Control': 'no-store' });
  }
  sendPage(reply, 200, context, 'Authorize', consentPage(context, authorization, params));
}

function devicePage(context: PageContext, idp: IdentityProvider, typed: string | null): SafeHtml {
  const pending = typed === null ? null : idp.pendingDevice(typed);
  if (pending === null) {
    return html`<h1>Connect a device</h1>
${typed === null ? '' : html`<p class="error" role="alert">That code is unknown, expired or already used. Check the code your device shows.</p>`}
<form method="get" action="${DEVICE_PAGE_PATH}"><label for="user_code">Code shown on your device</label>
<input id="user_code" name="user_code" type="text" autocomplete="off" placeholder="ABCD-EFGH" required value="${typed ?? ''}">
<button class="primary" type="submit">Continue</button></form>`;
  }
  return html`<h1>Connect ${pending.clientName}?</h1>
<p>A device showing the code <code>${pending.userCode}</code> asks for access to your account <b>${context.user?.username ?? ''}</b>:</p>
${scopeList(pending.scopes)}<p>on <code>${resourceText(context.origin, pending.resource)}</code>.</p>
<form method="post" action="${DEVICE_PAGE_PATH}">${csrfField(context)}<input type="hidden" name="user_code" value="${pending.userCode}">
<button class="primary" type="submit" name="decision" value="allow">Allow</button>
<button class="secondary" type="submit" name="decision" value="deny">Deny</button></form>`;
}

export function consentRoutes(idp: IdentityProvider): Route[] {
  return [
    {
      method: 'GET', path: AUTHORIZE_PATH, handler(request, reply) {
        return answerAuthorization(idp, reply, pageContext(request, idp), request.query, null);
      },
    },
    {
      method: 'POST', path: AUTHORIZE_PATH, handler(request, reply) {
        const context = pageContext(request, idp);
        const form = readForm(request, context);
        if (form === null) return refuseForm(reply, context);
        const params = new URLSearchParams();
        for (const name of AUTHORIZATION_PARAMS) for (const value of form.getAll(name)) params.append(name, value);
        return answerAuthorization(idp, reply, context, params, form.get('decision') === 'allow' ? 'allow' : 'deny');
      },
    },
    {
      method: 'GET', path: DEVICE_PAGE_PATH, handler(request, reply) {
        const context = pageContext(request, idp);
        const typed = request.query.get('user_code');
        if (context.user === null) return redirect(reply, signInLocation(typed === null ? DEVICE_PAGE_PATH : `${DEVICE_PAGE_PATH}?user_code=${encodeURIComponent(typed)}`));
        sendPage(reply, 200, context, 'Connect a device', devicePage(context, idp, typed));
      },
    },
    {
      method: 'POST', path: DEVICE_PAGE_PATH, handler(request, reply) {
        const context = pageContext(request, idp);
        const form = readForm(request, context);
        if (form === null) return refuseForm(reply, context);
        if (context.user === null) return redirect(reply, signInLocation(DEVICE_PAGE_PATH));
        const allow = form.get('decision') === 'allow';
        const decided = idp.decideDevice(context.user, form.get('user_code') ?? '', allow);
        const message = !decided ? 'That code is no longer waiting for approval.' : allow ? 'Device connected. You can return to your device.' : 'Access denied. Your device will be told.';
        sendPage(reply, decided ? 200 : 400, context, 'Connect a device', html`<h1>Connect a device</h1><p${decided ? '' : html` class="error"`}>${message}</p>`);
      },
    },
  ];
}
