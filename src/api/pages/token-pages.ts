/**
 * A person's own credentials: Access tokens (list, create with scopes and a note, the token shown
 * once on the answer to the form and never again, revoke) and Authorized applications (the OAuth
 * clients holding a grant of theirs, each revocable). Only the owner's own tokens and grants.
 */
import type { Route } from '../../http/routes.js';
import { csrfField, html } from './kit.js';
import { actionRoute, formatTime, SECTIONS, sendSettings, viewRoute, type SectionView, type SettingsServices, type SignedIn } from './settings-kit.js';

const SCOPE_HELP: Readonly<Record<string, string>> = {
  'user:all': 'GraphQL, the stream API and the command line, as you',
  mcp: 'the MCP endpoints, as you',
  'site-admin:sudo': 'act as any user (site admins only)',
};

function scopesFor(context: SignedIn): string[] {
  return context.user.siteAdmin ? ['user:all', 'mcp', 'site-admin:sudo'] : ['user:all', 'mcp'];
}

function tokenView(services: SettingsServices, created: { token: string; note: string } | null = null): SectionView {
  return (reply, context, problem) => {
    const tokens = services.accounts.listAccessTokens(context.user.id);
    const shown = created === null ? '' : html`<div class="shown-once" role="status"><p>New token <b>${created.note}</b>. Copy it now: it is shown only once.</p>
<p><code id="new-token">${created.token}</code></p></div>`;
    sendSettings(reply, problem?.status ?? 200, context, SECTIONS.tokens, html`${shown}
<p>Tokens authenticate as you with <code>Authorization: token …</code>.</p>
${tokens.length === 0 ? html`<p>You have no access tokens.</p>` : html`<table><thead><tr><th>Note</th><th>Scopes</th><th>Created</th><th>Last used</th><th></th></tr></thead><tbody>
${tokens.map((t) => html`<tr><td>${t.note}</td><td>${t.scopes.join(', ')}</td><td>${formatTime(t.createdAt)}</td><td>${formatTime(t.lastUsedAt)}</td>
<td><form method="post" action="${SECTIONS.tokens.path}/revoke">${csrfField(context)}<input type="hidden" name="id" value="${t.id}"><button type="submit">Revoke</button></form></td></tr>`)}
</tbody></table>`}
<h2>New token</h2>
<form method="post" action="${SECTIONS.tokens.path}">${csrfField(context)}
<label for="note">Note</label><input id="note" name="note" type="text" required maxlength="200" placeholder="What is it for?">
<fieldset><legend>Scopes</legend>${scopesFor(context).map((s) => html`<label><input type="checkbox" name="scope" value="${s}"${s === 'user:all' ? html` checked` : ''}> <code>${s}</code>: ${SCOPE_HELP[s] ?? ''}</label>`)}</fieldset>
<button class="primary" type="submit">Create token</button></form>`, problem?.message ?? null);
  };
}

function authorizedView(services: SettingsServices): SectionView {
  return (reply, context, problem) => {
    const apps = services.apps.authorizedBy(context.user.id);
    sendSettings(reply, problem?.status ?? 200, context, SECTIONS.authorized, apps.length === 0 ? html`<p>No application holds access to your account.</p>` : html`
<p>Applications you allowed through OAuth. Revoking one ends its access at once; it must ask you again.</p>
<table><thead><tr><th>Application</th><th>Allowed</th><th>Grants</th><th></th></tr></thead><tbody>
${apps.map((a) => html`<tr><td>${a.name}<br><code>${a.clientId}</code></td><td>${formatTime(a.lastGrantedAt)}</td><td>${a.grants}</td>
<td><form method="post" action="${SECTIONS.authorized.path}/revoke">${csrfField(context)}<input type="hidden" name="client_id" value="${a.clientId}"><button type="submit">Revoke</button></form></td></tr>`)}
</tbody></table>`, problem?.message ?? null);
  };
}

export function tokenRoutes(services: SettingsServices): Route[] {
  const tokens = tokenView(services);
  const authorized = authorizedView(services);
  return [
    viewRoute(services, SECTIONS.tokens, tokens),
    actionRoute(services, SECTIONS.tokens, SECTIONS.tokens.path, tokens, (form, context, reply) => {
      const note = (form.get('note') ?? '').trim();
      const scopes = form.getAll('scope');
      if (note === '' || scopes.length === 0) {
        tokens(reply, context, { status: 400, message: 'A token needs a note and at least one scope.' });
        return 'answered';
      }
      const { token } = services.accounts.createAccessToken({ userId: context.user.id, creatorId: context.user.id, scopes, note });
      tokenView(services, { token, note })(reply, context);
      return 'answered';
    }),
    actionRoute(services, SECTIONS.tokens, `${SECTIONS.tokens.path}/revoke`, tokens, (form, context, reply) => {
      const id = Number(form.get('id'));
      const owned = services.accounts.listAccessTokens(context.user.id).some((t) => t.id === id);
      if (!owned) {
        tokens(reply, context, { status: 404, message: 'That token is not one of yours, or is already revoked.' });
        return 'answered';
      }
      services.accounts.deleteAccessToken(id);
      return null;
    }),
    viewRoute(services, SECTIONS.authorized, authorized),
    actionRoute(services, SECTIONS.authorized, `${SECTIONS.authorized.path}/revoke`, authorized, (form, context) => {
      services.apps.revokeFor(context.user.id, form.get('client_id') ?? '');
      return null;
    }),
  ];
}
