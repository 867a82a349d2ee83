/**
 * The commits page (`/<repo>@<rev>/-/commits[/<path>]`): the revision's history, newest first,
 * optionally only commits touching a path, a page at a time (`?after=` the previous page's end).
 */
import type { Reply } from '../../../http/respond.js';
import type { CommitInfo } from '../../../model/repos.js';
import { html, type SafeHtml } from '../kit.js';
import { sendNotFound } from './not-found.js';
import { resolveAt, sendRepoPage, sendRevisionNotFound } from './repo-page.js';
import type { RepoViewRequest } from './repo-view.js';
import type { WebServices } from './services.js';
import { repoViewUrl } from './web-paths.js';

export const COMMITS_PER_PAGE = 30;

export async function commitsView(services: WebServices, view: RepoViewRequest, reply: Reply): Promise<void> {
  const at = await resolveAt(services, view);
  if (at === null) return sendRevisionNotFound(reply, view, view.location.rev);
  const after = view.request.query.get('after');
  if (after !== null && !/^\d{1,9}$/.test(after)) return sendNotFound(reply, view.viewer.context, `"after=${after}" is not a page of this history: follow the "Older commits" link of the page before.`);
  const path = view.location.path;
  const page = await services.diffs.ancestors(at.repo, at.commit, { first: COMMITS_PER_PAGE, afterCursor: after, path });
  const commits = await Promise.all(page.oids.map((oid) => services.repos.readCommit(at.repo, oid)));
  const here = repoViewUrl(at.repo, at.rev, 'commits', path);
  const older = page.hasNextPage && page.endCursor !== null ? html`<a rel="next" href="${here}?after=${page.endCursor}">Older commits</a>` : '';
  const newer = after === null ? '' : html`<a rel="prev" href="${Number(after) <= COMMITS_PER_PAGE ? here : `${here}?after=${Number(after) - COMMITS_PER_PAGE}`}">Newer commits</a>`;
  const scope = path === '' ? '' : html` touching <code>${path}</code>`;
  const list = commits.length === 0 ? html`<p>No commits${scope}.</p>` : html`<ol class="commits">${commits.map((c) => commitItem(at.repo, c))}</ol>`;
  sendRepoPage(reply, view, at, {
    title: path === '' ? 'Commits' : `Commits · ${path}`, tab: 'commits',
    content: html`<h2>Commits${scope}</h2>${list}<nav class="pager" aria-label="Pages">${newer} ${older}</nav>`,
  });
}

export function commitItem(repo: string, c: Pick<CommitInfo, 'oid' | 'message' | 'authorName' | 'authorDate'>): SafeHtml {
  const subject = c.message.split('\n', 1)[0] ?? '';
  return html`<li><a href="${repoViewUrl(repo, null, 'commit', c.oid)}">${subject === '' ? '(no message)' : subject}</a>
<span class="muted">${c.authorName} · <time datetime="${c.authorDate}">${c.authorDate.slice(0, 10)}</time> · <code>${c.oid.slice(0, 10)}</code></span></li>`;
}
