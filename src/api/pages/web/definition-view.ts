/**
 * Go to definition from the file view (`/<repo>@<rev>/-/definition/<path>?line=&character=`): a
 * redirect to the definition's lines, a page listing the candidates when several are as likely,
 * the references page when the click was on the definition itself; JSON (the hover) on request.
 */
import type { Reply } from '../../../http/respond.js';
import { html } from '../kit.js';
import { describeSite, resolveClick } from './nav-request.js';
import { wantsJson } from './navigation.js';
import { sendRepoPage } from './repo-page.js';
import type { RepoViewRequest } from './repo-view.js';
import type { WebServices } from './services.js';
import { repoViewUrl } from './web-paths.js';

export async function definitionView(services: WebServices, view: RepoViewRequest, reply: Reply): Promise<void> {
  const click = await resolveClick(services, view, reply);
  if (click === null) return;
  const { at, answer, position, name } = click;
  const best = answer.best.site;
  const references = `${repoViewUrl(at.repo, at.rev, 'references', view.location.path)}?line=${position.line}&character=${position.character}`;
  const sites = [best, ...answer.alternatives.map((a) => a.site)];
  if (wantsJson(view.request.headers['accept'])) {
    const [definition, ...alternatives] = await Promise.all(sites.map((s) => describeSite(services, at, s)));
    return reply.json(200, { name, definition, alternatives, references }, { 'Cache-Control': 'no-store' });
  }
  const own = best.file.repo === at.repo && best.file.commit === at.commit && best.file.path === view.location.path
    && best.definition.nameRange.startLine === position.line - 1 && best.definition.nameRange.startColumn <= position.character - 1
    && position.character - 1 < best.definition.nameRange.endColumn;
  // Clicking a definition's own name asks where it is used, as in Sourcegraph.
  if (own) return reply.send(302, '', { Location: references });
  if (sites.length === 1) return reply.send(302, '', { Location: (await describeSite(services, at, best)).url });
  const described = await Promise.all(sites.map((s) => describeSite(services, at, s)));
  const items = described.map((d) => html`<li><a href="${d.url}">${d.repo} – ${d.path}:${d.line}</a> <span class="muted">${d.kind}</span><pre><code>${d.signature}</code></pre></li>`);
  sendRepoPage(reply, view, at, {
    title: `Definitions of ${name}`, tab: 'code',
    content: html`<h2>${sites.length} definitions of <code>${name}</code> are as likely</h2><ul class="defs">${items}</ul><p><a href="${references}">Find references</a></p>`,
  });
}
