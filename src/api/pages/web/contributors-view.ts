/**
 * The contributors page (`/<repo>/-/contributors`): authors of the default branch by commit count,
 * from the commit index, as GraphQL's `Repository.contributors` counts them.
 */
import type { Reply } from '../../../http/respond.js';
import { html } from '../kit.js';
import { sendRepoPage } from './repo-page.js';
import type { RepoViewRequest } from './repo-view.js';
import type { WebServices } from './services.js';
import { searchUrl } from './web-paths.js';

const MAX_LISTED = 200;

export async function contributorsView(services: WebServices, view: RepoViewRequest, reply: Reply): Promise<void> {
  const name = view.repo.name;
  const path = view.request.query.get('path') ?? '';
  const people = await services.history.contributors(name, path === '' ? {} : { path }, view.viewer.principal.canRead);
  const rows = people.slice(0, MAX_LISTED).map((p) => html`<tr><td>${p.name}</td><td>${p.email}</td><td class="num">${p.count}</td>
<td><a href="${searchUrl(`repo:^${name.replace(/[.+*?()|[\]{}^$\\]/g, '\\$&')}$ type:commit author:${p.email}`)}">Commits</a></td></tr>`);
  const content = people.length === 0
    ? html`<h2>Contributors</h2><p>No commits are indexed for ${name} yet.</p>`
    : html`<h2>Contributors</h2><table class="list"><thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Commits</th><th scope="col">Search</th></tr></thead><tbody>${rows}</tbody></table>${people.length > MAX_LISTED ? html`<p class="muted">The ${MAX_LISTED} with most commits of ${people.length}.</p>` : ''}`;
  sendRepoPage(reply, view, null, { title: 'Contributors', tab: 'contributors', content });
}
