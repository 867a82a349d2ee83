/**
 * Site admin: Users (list, create with an optional password, delete, make or unmake site admin)
 * and Roles (every role with its permissions; assign a custom role to a user or take it away).
 * The store refuses what must not happen (the last site admin, system roles) with a reason shown.
 */
import type { Route } from '../../http/routes.js';
import { csrfField, html, type SafeHtml } from './kit.js';
import { actionRoute, formatTime, SECTIONS, sendSettings, viewRoute, type SectionView, type SettingsServices, type SignedIn } from './settings-kit.js';

function userForm(context: SignedIn, action: string, id: number, label: string, extra: SafeHtml | string = ''): SafeHtml {
  return html`<form method="post" action="${action}">${csrfField(context)}<input type="hidden" name="id" value="${id}">${extra}<button type="submit">${label}</button></form>`;
}

function usersView(services: SettingsServices): SectionView {
  return (reply, context, problem) => {
    const users = services.accounts.listUsers();
    const path = SECTIONS.users.path;
    sendSettings(reply, problem?.status ?? 200, context, SECTIONS.users, html`<table><thead><tr><th>Username</th><th>Email</th><th>Site admin</th><th>Created</th><th></th></tr></thead><tbody>
${users.map((u) => html`<tr><td>${u.username}</td><td>${u.email ?? ''}</td><td>${u.siteAdmin ? 'yes' : 'no'}</td><td>${formatTime(u.createdAt)}</td>
<td>${userForm(context, `${path}/site-admin`, u.id, u.siteAdmin ? 'Revoke site admin' : 'Make site admin', html`<input type="hidden" name="site_admin" value="${u.siteAdmin ? 'false' : 'true'}">`)}
${userForm(context, `${path}/delete`, u.id, 'Delete')}</td></tr>`)}
</tbody></table>
<h2>New user</h2>
<form method="post" action="${path}">${csrfField(context)}
<label for="username">Username</label><input id="username" name="username" type="text" required maxlength="255">
<label for="email">Email (optional)</label><input id="email" name="email" type="text">
<label for="password">Password (optional; without one the user signs in with tokens only)</label><input id="password" name="password" type="password" autocomplete="new-password">
<button class="primary" type="submit">Create user</button></form>`, problem?.message ?? null);
  };
}

function rolesView(services: SettingsServices): SectionView {
  return (reply, context, problem) => {
    const roles = services.accounts.listRoles();
    const custom = roles.filter((r) => !r.system);
    const users = services.accounts.listUsers();
    const path = SECTIONS.roles.path;
    sendSettings(reply, problem?.status ?? 200, context, SECTIONS.roles, html`<table><thead><tr><th>Role</th><th>Permissions</th><th>Held by</th></tr></thead><tbody>
${roles.map((r) => html`<tr><td>${r.name}${r.system ? html`<br><small>system role</small>` : ''}</td><td>${r.permissions.join(', ') || 'none'}</td>
<td>${users.filter((u) => u.roles.includes(r.name)).map((u) => u.username).join(', ')}</td></tr>`)}
</tbody></table>
<h2>Assign or unassign a role</h2>
${custom.length === 0 ? html`<p>There are no custom roles (<code>quarry roles create</code> makes one); USER and SITE_ADMINISTRATOR follow the account.</p>` : html`
<form method="post" action="${path}/assign">${csrfField(context)}
<label for="user">User</label><select id="user" name="id">${users.map((u) => html`<option value="${u.id}">${u.username}</option>`)}</select>
<label for="role">Role</label><select id="role" name="role">${custom.map((r) => html`<option value="${r.name}">${r.name}</option>`)}</select><br>
<button class="primary" type="submit" name="action" value="assign">Assign</button>
<button class="secondary" type="submit" name="action" value="unassign">Unassign</button></form>`}`, problem?.message ?? null);
  };
}

export function adminUserRoutes(services: SettingsServices): Route[] {
  const users = usersView(services);
  const roles = rolesView(services);
  const { accounts } = services;
  const idOf = (form: URLSearchParams) => Number(form.get('id') ?? '');
  return [
    viewRoute(services, SECTIONS.users, users),
    actionRoute(services, SECTIONS.users, SECTIONS.users.path, users, (form) => {
      const email = (form.get('email') ?? '').trim();
      const password = form.get('password') ?? '';
      accounts.createUser({ username: (form.get('username') ?? '').trim(), email: email === '' ? null : email, ...(password === '' ? {} : { password }) });
      return null;
    }),
    actionRoute(services, SECTIONS.users, `${SECTIONS.users.path}/delete`, users, (form) => {
      accounts.deleteUser(idOf(form));
      return null;
    }),
    actionRoute(services, SECTIONS.users, `${SECTIONS.users.path}/site-admin`, users, (form) => {
      accounts.setSiteAdmin(idOf(form), form.get('site_admin') === 'true');
      return null;
    }),
    viewRoute(services, SECTIONS.roles, roles),
    actionRoute(services, SECTIONS.roles, `${SECTIONS.roles.path}/assign`, roles, (form) => {
      if (form.get('action') === 'unassign') accounts.removeRole(idOf(form), form.get('role') ?? '');
      else accounts.assignRole(idOf(form), form.get('role') ?? '');
      return null;
    }),
  ];
}
