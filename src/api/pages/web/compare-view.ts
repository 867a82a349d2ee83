/**
 * The comparison page (`/<repo>/-/compare/<base>...<head>`): the commits head has that base has not,
 * and the changes head brings over their merge base, as Sourcegraph and `git diff base...head` show.
 * Without a range: a form to pick one.
 */
import type { Reply } from '../../../http/respond.js';
import { html } from '../kit.js';
import { commitItem } from './commits-view.js';
import { renderDiff } from './diff-view.js';
import { sendNotFound } from './not-found.js';
import { resolveAt, sendRepoPage } from './repo-page.js';
import type { RepoViewRequest } from './repo-view.js';
import type { WebServices } from './services.js';
import { repoViewUrl } from './web-paths.js';

const MAX_COMMITS = 250;

export async function compareView(services: WebServices, view: RepoViewRequest, reply: Reply): Promise<void> {
  const name = view.repo.name;
  const picked = view.request.query.get('base') !== null || view.request.query.get('head') !== null;
  if (picked) {
    const base = view.request.query.get('base') ?? '';
    const head = view.request.query.get('head') ?? '';
    return reply.send(303, '', { Location: repoViewUrl(name, null, 'compare', `${base}...${head}`) });
  }
  const range = /^(.+?)\.\.\.?(.+)$/.exec(view.location.path);
  if (range === null) return sendRepoPage(reply, view, null, { title: 'Compare', tab: 'compare', content: compareForm(name, '', '') });
  const [, baseRev, headRev] = range as unknown as [string, string, string];
  const [base, head] = await Promise.all([resolveAt(services, view, baseRev), resolveAt(services, view, headRev)]);
  if (base === null || head === null) {
    const missing = [base === null ? baseRev : null, head === null ? headRev : null].filter((r) => r !== null).join(' and ');
    return sendNotFound(reply, view.viewer.context, `No revision named ${missing} exists in ${name}: compare two branches, tags or commits of it.`);
  }
  const [comparison, commits] = await Promise.all([
    services.diffs.compare(name, base.commit, head.commit),
    services.commitsBetween(name, base.commit, head.commit, MAX_COMMITS + 1),
  ]);
  const shown = commits.slice(0, MAX_COMMITS);
  const commitList = commits.length === 0
    ? html`<p>${headRev} has no commits that ${baseRev} does not have.</p>`
    : html`<ol class="commits">${shown.map((c) => commitItem(name, { ...c, authorDate: c.authorDate }))}</ol>${commits.length > MAX_COMMITS ? html`<p class="muted">Only the newest ${MAX_COMMITS} commits are listed.</p>` : ''}`;
  const diff = renderDiff(comparison.files, (f) => (f.newPath === null ? null : repoViewUrl(name, head.commit, 'blob', f.newPath)));
  sendRepoPage(reply, view, null, {
    title: `${baseRev}...${headRev}`, tab: 'compare',
    content: html`${compareForm(name, baseRev, headRev)}<h2>Comparing ${baseRev}...${headRev}</h2><h3>Commits</h3>${commitList}<h3>Changes</h3>${diff}`,
  });
}

function compareForm(repo: string, base: string, head: string) {
  return html`<form class="compare" method="get" action="${repoViewUrl(repo, null, 'compare')}"><label for="compare-base">Base</label> <input id="compare-base" name="base" value="${base}" required>
<label for="compare-head">Head</label> <input id="compare-head" name="head" value="${head}" required> <button type="submit">Compare</button></form>`;
}
