/**
 * What every repository page shares: the revision of its URL resolved to a commit, the header (the
 * repository, the revision, the tabs), and the not-found page a bad revision or path answers.
 */
import type { Reply } from '../../../http/respond.js';
import { html, type SafeHtml } from '../kit.js';
import { sendAppPage } from './layout.js';
import { sendNotFound } from './not-found.js';
import type { RepoViewRequest } from './repo-view.js';
import type { WebServices } from './services.js';
import { repoUrl, repoViewUrl } from './web-paths.js';

/** The repository at the revision the URL names (its default branch when none). */
export interface RepoAt {
  readonly repo: string;
  /** The revision as the URL wrote it, or null for the default branch: links keep it. */
  readonly rev: string | null;
  readonly commit: string;
  /** What the page calls the revision: the branch, tag or abbreviated commit. */
  readonly label: string;
}

export type RepoTab = 'code' | 'commits' | 'branches' | 'tags' | 'contributors' | 'compare';

const TABS: readonly (readonly [RepoTab, string, string])[] = [
  ['code', 'Code', 'tree'], ['commits', 'Commits', 'commits'], ['branches', 'Branches', 'branches'],
  ['tags', 'Tags', 'tags'], ['contributors', 'Contributors', 'contributors'], ['compare', 'Compare', 'compare'],
];

/** Null when the revision does not exist (or the repository is empty). */
export async function resolveAt(services: WebServices, view: RepoViewRequest, rev = view.location.rev): Promise<RepoAt | null> {
  const { repo } = view;
  const wanted = rev ?? repo.defaultBranch ?? 'HEAD';
  const commit = isRevision(wanted) ? await services.repos.resolveRevision(repo.name, wanted) : null;
  if (commit === null) return null;
  return { repo: repo.name, rev, commit, label: /^[0-9a-f]{40}$/.test(wanted) ? wanted.slice(0, 10) : wanted };
}

/** A revision a page may hand git: no option, no control character, no range. */
export function isRevision(rev: string): boolean {
  return rev.length > 0 && rev.length <= 256 && !rev.startsWith('-') && !/[\u0000-\u0020\u007f~^:?*[\\]|\.\./.test(rev);
}

export interface RepoPage {
  readonly title: string;
  readonly tab: RepoTab;
  readonly content: SafeHtml;
  /** The revision picker, where the page has one. */
  readonly picker?: SafeHtml;
  readonly scripts?: readonly string[];
}

export function sendRepoPage(reply: Reply, view: RepoViewRequest, at: RepoAt | null, page: RepoPage): void {
  const { name } = view.repo;
  const rev = at?.rev ?? view.location.rev;
  const tabs = TABS.map(([tab, label, word]) => {
    const href = tab === 'code' ? repoUrl(name, rev) : repoViewUrl(name, tab === 'commits' ? rev : null, word);
    return html`<li><a href="${href}"${tab === page.tab ? html` aria-current="page"` : ''}>${label}</a></li>`;
  });
  const header = html`<div class="repo-head"><h1 class="repo-name"><a href="${repoUrl(name, rev)}">${name}</a>${at === null ? '' : html` <span class="rev">@ ${at.label}</span>`}</h1>
${page.picker ?? ''}<nav class="repo-tabs" aria-label="Repository"><ul>${tabs}</ul></nav></div>`;
  sendAppPage(reply, 200, view.viewer.context, {
    title: `${page.title} · ${name}`,
    query: `repo:^${name.replace(/[.+*?()|[\]{}^$\\]/g, '\\$&')}$ `,
    content: html`${header}${page.content}`,
    ...(page.scripts === undefined ? {} : { scripts: page.scripts }),
  });
}

export function sendRevisionNotFound(reply: Reply, view: RepoViewRequest, rev: string | null): void {
  sendNotFound(reply, view.viewer.context, rev === null
    ? `${view.repo.name} has no commits yet.`
    : `No revision named ${rev} exists in ${view.repo.name}: pick a branch or tag from ${repoViewUrl(view.repo.name, null, 'branches')}.`);
}

export function sendPathNotFound(reply: Reply, view: RepoViewRequest, at: RepoAt, what: string): void {
  sendNotFound(reply, view.viewer.context, `${what} at ${at.label} in ${view.repo.name}.`);
}

/** The path as links to each of its directories, the last part plain. */
export function breadcrumbs(at: RepoAt, path: string): SafeHtml {
  const parts = path === '' ? [] : path.split('/');
  const links = parts.map((part, i) => i === parts.length - 1
    ? html` / <span>${part}</span>`
    : html` / <a href="${repoViewUrl(at.repo, at.rev, 'tree', parts.slice(0, i + 1).join('/'))}">${part}</a>`);
  return html`<p class="crumbs"><a href="${repoUrl(at.repo, at.rev)}">${at.repo.split('/').at(-1) ?? at.repo}</a>${links}</p>`;
}
