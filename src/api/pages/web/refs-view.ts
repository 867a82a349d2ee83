/**
 * The branches and tags pages (`/<repo>/-/branches`, `/<repo>/-/tags`): every ref with the commit
 * it points at, linked to its tree and its commit.
 */
import type { Reply } from '../../../http/respond.js';
import type { RefInfo } from '../../../model/repos.js';
import { html } from '../kit.js';
import type { RepoViewRequest } from './repo-view.js';
import { sendRepoPage } from './repo-page.js';
import type { WebServices } from './services.js';
import { repoUrl, repoViewUrl } from './web-paths.js';

function refsView(kind: RefInfo['kind']) {
  return async (services: WebServices, view: RepoViewRequest, reply: Reply): Promise<void> => {
    const name = view.repo.name;
    const refs = (await services.repos.refs(name)).filter((r) => r.kind === kind);
    const title = kind === 'branch' ? 'Branches' : 'Tags';
    const rows = refs.map((r) => html`<tr><td><a href="${repoUrl(name, r.name)}">${r.name}</a>${r.name === view.repo.defaultBranch && kind === 'branch' ? html` <span class="muted">(default)</span>` : ''}</td>
<td><a class="oid" href="${repoViewUrl(name, null, 'commit', r.oid)}">${r.oid.slice(0, 10)}</a></td>
<td><a href="${repoViewUrl(name, r.name, 'commits')}">Commits</a></td></tr>`);
    const content = refs.length === 0
      ? html`<h2>${title}</h2><p>${name} has no ${title.toLowerCase()}.</p>`
      : html`<h2>${title}</h2><table class="list"><thead><tr><th scope="col">Name</th><th scope="col">Commit</th><th scope="col">History</th></tr></thead><tbody>${rows}</tbody></table>`;
    sendRepoPage(reply, view, null, { title, tab: kind === 'branch' ? 'branches' : 'tags', content });
  };
}

export const branchesView = refsView('branch');
export const tagsView = refsView('tag');
