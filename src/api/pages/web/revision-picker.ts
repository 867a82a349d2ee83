/**
 * The revision picker of the tree and file pages: a disclosure listing branches and tags, each a
 * link to the same path at that revision, so it works without JavaScript.
 */
import type { RefInfo } from '../../../model/repos.js';
import { html, type SafeHtml } from '../kit.js';
import type { RepoAt } from './repo-page.js';
import type { WebServices } from './services.js';
import { repoUrl, repoViewUrl } from './web-paths.js';

const MAX_LISTED = 100;

export async function revisionPicker(services: WebServices, at: RepoAt, view: 'tree' | 'blob', path: string): Promise<SafeHtml> {
  const refs = await services.repos.refs(at.repo);
  const hrefOf = (rev: string): string => (view === 'tree' && path === '' ? repoUrl(at.repo, rev) : repoViewUrl(at.repo, rev, view, path));
  const list = (kind: RefInfo['kind'], heading: string, word: string): SafeHtml => {
    const named = refs.filter((r) => r.kind === kind);
    if (named.length === 0) return html``;
    const items = named.slice(0, MAX_LISTED).map((r) => html`<li><a href="${hrefOf(r.name)}"${r.name === at.label ? html` aria-current="true"` : ''}>${r.name}</a></li>`);
    const more = named.length > MAX_LISTED ? html`<li><a href="${repoViewUrl(at.repo, null, word)}">All ${named.length} ${word}</a></li>` : '';
    return html`<h2>${heading}</h2><ul>${items}${more}</ul>`;
  };
  return html`<details class="revpick"><summary>Revision: <strong>${at.label}</strong></summary>
<div class="revpick-menu">${list('branch', 'Branches', 'branches')}${list('tag', 'Tags', 'tags')}</div></details>`;
}
