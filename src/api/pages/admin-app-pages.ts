/**
 * Site admin: OAuth applications. Lists every application (made here or registered itself), makes
 * one (name, redirect URIs, scopes `user:all` and/or `mcp`, confidential or public; the client
 * secret shown once on the answer to the form) and deletes one with its grants.
 */
import type { Route } from '../../http/routes.js';
import type { OAuthApplicationInfo } from '../../model/oauth-apps.js';
import { csrfField, html } from './kit.js';
import { actionRoute, formatTime, SECTIONS, sendSettings, viewRoute, type SectionView, type SettingsServices } from './settings-kit.js';

const SECTION = SECTIONS.oauthApps;

function appView(services: SettingsServices, created: { application: OAuthApplicationInfo; secret: string | null } | null = null): SectionView {
  return (reply, context, problem) => {
    const apps = services.apps.list();
    const shown = created === null ? '' : html`<div class="shown-once" role="status"><p>Created <b>${created.application.name}</b>.</p>
<dl><dt>Client ID</dt><dd><code id="new-client-id">${created.application.clientId}</code></dd>
${created.secret === null ? html`<dt>Public client</dt><dd>No secret: it proves itself with PKCE.</dd>` : html`<dt>Client secret (shown only now)</dt><dd><code id="new-client-secret">${created.secret}</code></dd>`}</dl></div>`;
    sendSettings(reply, problem?.status ?? 200, context, SECTION, html`${shown}
${apps.length === 0 ? html`<p>No OAuth applications yet.</p>` : html`<table><thead><tr><th>Name</th><th>Client ID</th><th>Type</th><th>Scopes</th><th>Redirect URIs</th><th>Created</th><th></th></tr></thead><tbody>
${apps.map((a) => html`<tr><td>${a.name}${a.dynamic ? html`<br><small>registered itself</small>` : ''}</td><td><code>${a.clientId}</code></td><td>${a.confidential ? 'confidential' : 'public'}</td>
<td>${a.scopes.join(', ')}</td><td>${a.redirectUris.map((u) => html`<code>${u}</code><br>`)}</td><td>${formatTime(a.createdAt)}</td>
<td><form method="post" action="${SECTION.path}/delete">${csrfField(context)}<input type="hidden" name="client_id" value="${a.clientId}"><button type="submit">Delete</button></form></td></tr>`)}
</tbody></table>`}
<h2>New application</h2>
<form method="post" action="${SECTION.path}">${csrfField(context)}
<label for="name">Name</label><input id="name" name="name" type="text" required maxlength="200">
<label for="redirect_uris">Redirect URIs (one a line; none for the device flow only)</label><textarea id="redirect_uris" name="redirect_uris" rows="3" cols="60"></textarea>
<fieldset><legend>Scopes</legend><label><input type="checkbox" name="scope" value="user:all" checked> <code>user:all</code>: GraphQL and the stream API</label>
<label><input type="checkbox" name="scope" value="mcp"> <code>mcp</code>: the MCP endpoints</label></fieldset>
<fieldset><legend>Type</legend><label><input type="radio" name="type" value="confidential" checked> Confidential: a server that keeps a secret</label>
<label><input type="radio" name="type" value="public"> Public: a native or browser app (PKCE, no secret)</label></fieldset>
<button class="primary" type="submit">Create application</button></form>`, problem?.message ?? null);
  };
}

export function adminAppRoutes(services: SettingsServices): Route[] {
  const view = appView(services);
  return [
    viewRoute(services, SECTION, view),
    actionRoute(services, SECTION, SECTION.path, view, (form, context, reply) => {
      const created = services.apps.create({
        name: form.get('name') ?? '',
        redirectUris: (form.get('redirect_uris') ?? '').split(/\r?\n/),
        scopes: form.getAll('scope'),
        confidential: form.get('type') !== 'public',
      });
      appView(services, created)(reply, context);
      return 'answered';
    }),
    actionRoute(services, SECTION, `${SECTION.path}/delete`, view, (form) => {
      services.apps.delete(form.get('client_id') ?? '');
      return null;
    }),
  ];
}
