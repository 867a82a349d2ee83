/**
 * The commit page (`/<repo>/-/commit/<sha>`): its message, author, date and parents, then its
 * changes against its first parent, file by file.
 */
import type { Reply } from '../../../http/respond.js';
import { html } from '../kit.js';
import { renderDiff } from './diff-view.js';
import { resolveAt, sendRepoPage, sendRevisionNotFound } from './repo-page.js';
import type { RepoViewRequest } from './repo-view.js';
import type { WebServices } from './services.js';
import { repoViewUrl } from './web-paths.js';

export async function commitView(services: WebServices, view: RepoViewRequest, reply: Reply): Promise<void> {
  const wanted = view.location.path;
  const at = wanted === '' ? null : await resolveAt(services, view, wanted);
  const commit = at === null ? null : await services.commitDiff(at.repo, at.commit);
  if (at === null || commit === null) return sendRevisionNotFound(reply, view, wanted === '' ? '(none given)' : wanted);
  const name = at.repo;
  const [subject, ...body] = commit.message.replace(/\n+$/, '').split('\n');
  const parents = commit.parents.map((p) => html`<a class="oid" href="${repoViewUrl(name, null, 'commit', p)}">${p.slice(0, 10)}</a> `);
  const diff = renderDiff(commit.files, (f) => (f.newPath === null ? null : repoViewUrl(name, commit.oid, 'blob', f.newPath)));
  const content = html`<article class="commit"><h2>${subject ?? ''}</h2>${body.join('\n').trim() === '' ? '' : html`<pre class="message">${body.join('\n').trim()}</pre>`}
<dl class="commit-meta"><dt>Commit</dt><dd><code>${commit.oid}</code></dd><dt>Author</dt><dd>${commit.authorName} &lt;${commit.authorEmail}&gt;</dd>
<dt>Date</dt><dd><time datetime="${commit.authorDate}">${commit.authorDate.replace('T', ' ').replace(/Z$/, ' UTC')}</time></dd>
<dt>${commit.parents.length === 1 ? 'Parent' : 'Parents'}</dt><dd>${commit.parents.length === 0 ? 'none (the first commit)' : parents}</dd></dl>
<p><a href="${repoViewUrl(name, commit.oid, 'tree')}">Browse files at this commit</a></p>
${commit.parents.length > 1 ? html`<p class="muted">A merge commit: its changes are those of the commits it merged.</p>` : ''}${diff}</article>`;
  sendRepoPage(reply, view, null, { title: subject ?? commit.oid, tab: 'commits', content });
}
