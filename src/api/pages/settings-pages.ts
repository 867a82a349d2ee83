/**
 * The Settings pages as routes: Account (who is signed in), Access tokens and Authorized
 * applications for everyone, and for site admins OAuth applications, Users and Roles.
 * Server-rendered, no script; every form carries the session's CSRF token.
 */
import type { Route } from '../../http/routes.js';
import { adminAppRoutes } from './admin-app-pages.js';
import { adminUserRoutes } from './admin-user-pages.js';
import { html } from './kit.js';
import { SECTIONS, sendSettings, viewRoute, type SettingsServices } from './settings-kit.js';
import { tokenRoutes } from './token-pages.js';

export type { SettingsServices } from './settings-kit.js';

export function settingsRoutes(services: SettingsServices): Route[] {
  const account = viewRoute(services, SECTIONS.account, (reply, context) => {
    const { user } = context;
    sendSettings(reply, 200, context, SECTIONS.account, html`<dl><dt>Username</dt><dd>${user.username}</dd>
${user.email === null ? '' : html`<dt>Email</dt><dd>${user.email}</dd>`}
<dt>Role</dt><dd>${user.siteAdmin ? 'Site admin' : 'User'}</dd></dl>
<ul><li><a href="/debug/console">Debug console</a>: GraphQL with an access token</li></ul>`);
  });
  return [account, ...tokenRoutes(services), ...adminAppRoutes(services), ...adminUserRoutes(services)];
}
