/**
 * The branches and tags pages (`/<repo>/-/branches`, `/<repo>/-/tags`): every ref with its last
 * commit (subject, author, date), linked to its tree, that commit and its history; the default
 * branch first, then the most recently changed, tags newest first; `?q=` filters by name (a form
 * that works without script).
 */
import type { Reply } from '../../../http/respond.js';
import type { CommitInfo, RefInfo } from '../../../model/repos.js';
import { html } from '../kit.js';
import type { RepoViewRequest } from './repo-view.js';
import { sendRepoPage } from './repo-page.js';
import type { WebServices } from './services.js';
import { repoUrl, repoViewUrl } from './web-paths.js';

/** Refs dated (one commit read each) and shown per page; past it they are listed by name and the filter finds the rest. */
const MAX_REFS = 100;

const byVersion = new Intl.Collator('en', { numeric: true });

interface DatedRef {
  readonly ref: RefInfo;
  readonly commit: CommitInfo | null;
}

function refsView(kind: RefInfo['kind']) {
  return async (services: WebServices, view: RepoViewRequest, reply: Reply): Promise<void> => {
    const name = view.repo.name;
    const title = kind === 'branch' ? 'Branches' : 'Tags';
    const plural = title.toLowerCase();
    const filter = (view.request.query.get('q') ?? '').trim();
    const all = (await services.repos.refs(name)).filter((r) => r.kind === kind);
    const matching = all.filter((r) => r.name.toLowerCase().includes(filter.toLowerCase()));
    // Newest tags first by name where they cannot all be dated: v10 after v9.
    const byName = [...matching].sort((a, b) => (kind === 'tag' ? byVersion.compare(b.name, a.name) : byVersion.compare(a.name, b.name)));
    const shown = byName.slice(0, MAX_REFS);
    const dated: DatedRef[] = await Promise.all(shown.map(async (ref) => ({ ref, commit: await services.repos.readCommit(name, ref.oid).catch(() => null) })));
    const isDefault = (r: RefInfo): boolean => kind === 'branch' && r.name === view.repo.defaultBranch;
    const ordered = matching.length > MAX_REFS ? dated : [...dated].sort((a, b) => Number(isDefault(b.ref)) - Number(isDefault(a.ref))
      || (b.commit?.authorDate ?? '').localeCompare(a.commit?.authorDate ?? '') || byName.indexOf(a.ref) - byName.indexOf(b.ref));
    const rows = ordered.map(({ ref, commit }) => {
      const commitUrl = repoViewUrl(name, null, 'commit', ref.oid);
      const subject = commit?.message.split('\n', 1)[0] ?? '';
      return html`<tr><th scope="row"><a href="${repoUrl(name, ref.name)}">${ref.name}</a>${isDefault(ref) ? html` <span class="badge">default</span>` : ''}</th>
<td class="subject">${commit === null ? '' : html`<a href="${commitUrl}">${subject}</a> <span class="muted">by ${commit.authorName}</span>`}</td>
<td>${commit === null ? '' : html`<time datetime="${commit.authorDate}">${commit.authorDate.slice(0, 10)}</time>`}</td>
<td class="oid"><a class="oid" href="${commitUrl}" aria-label="Commit ${ref.oid.slice(0, 10)}">${ref.oid.slice(0, 10)}</a></td>
<td><a href="${repoViewUrl(name, ref.name, 'commits')}" aria-label="History of ${ref.name}">History</a></td></tr>`;
    });
    const form = html`<form class="ref-filter" method="get" role="search"><label for="ref-filter">Filter ${plural}</label>
<input type="search" id="ref-filter" name="q" value="${filter}" autocomplete="off" spellcheck="false"><button type="submit">Filter</button></form>`;
    const table = html`<table class="list refs"><thead><tr><th scope="col">Name</th><th scope="col">Last commit</th><th scope="col">Date</th><th scope="col" class="oid">Commit</th><th scope="col"><span class="sr-only">History</span></th></tr></thead><tbody>${rows}</tbody></table>`;
    const more = matching.length > MAX_REFS ? html`<p class="muted">Showing ${MAX_REFS} of ${matching.length} ${plural} by name; filter to find the others.</p>` : '';
    const body = all.length === 0
      ? html`<p class="empty">${name} has no ${plural}.</p>`
      : matching.length === 0 ? html`${form}<p class="empty">No ${plural} match "${filter}".</p>` : html`${form}${table}${more}`;
    sendRepoPage(reply, view, null, { title, tab: kind === 'branch' ? 'branches' : 'tags', content: html`<h2>${title}</h2>${body}` });
  };
}

export const branchesView = refsView('branch');
export const tagsView = refsView('tag');
