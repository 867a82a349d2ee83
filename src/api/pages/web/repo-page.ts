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
import { repoUrl, repoViewUrl, searchUrl } from './web-paths.js';

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
    query: `${repoQuery(name)} `,
    content: html`${header}${page.content}`,
    ...(page.scripts === undefined ? {} : { scripts: page.scripts }),
  });
}

export function sendRevisionNotFound(reply: Reply, view: RepoViewRequest, rev: string | null): void {
  const name = view.repo.name;
  if (rev === null) return sendNotFound(reply, view.viewer.context, `${name} has no commits yet.`);
  sendNotFound(reply, view.viewer.context, `No revision named ${rev} exists in ${name}: pick a branch or a tag.`, [
    { href: repoViewUrl(name, null, 'branches'), text: `Branches of ${name}` },
    { href: repoViewUrl(name, null, 'tags'), text: `Tags of ${name}` },
  ]);
}

/** A file or directory missing at a revision: its repository there, and a search for its name across the repository. */
export function sendPathNotFound(reply: Reply, view: RepoViewRequest, at: RepoAt, what: string): void {
  const name = view.repo.name;
  const base = view.location.path.split('/').filter((p) => p !== '').at(-1);
  const next = [{ href: repoUrl(name, at.rev), text: at.rev === null ? name : `${name}@${at.label}` }];
  if (base !== undefined) next.push({ href: searchUrl(`${repoQuery(name)} file:${escapeRegexp(base)}`), text: `Search for ${base} in ${name}` });
  sendNotFound(reply, view.viewer.context, `${what} at ${at.label} in ${name}.`, next);
}

function escapeRegexp(text: string): string {
  return text.replace(/[.+*?()|[\]{}^$\\]/g, '\\$&');
}

/** The search filter for exactly this repository. */
function repoQuery(name: string): string {
  return `repo:^${escapeRegexp(name)}$`;
}

/** The path as links to each of its directories, the last part plain. */
export function breadcrumbs(at: RepoAt, path: string): SafeHtml {
  const parts = path === '' ? [] : path.split('/');
  const links = parts.map((part, i) => i === parts.length - 1
    ? html` / <span>${part}</span>`
    : html` / <a href="${repoViewUrl(at.repo, at.rev, 'tree', parts.slice(0, i + 1).join('/'))}">${part}</a>`);
  return html`<p class="crumbs"><a href="${repoUrl(at.repo, at.rev)}">${at.repo.split('/').at(-1) ?? at.repo}</a>${links}</p>`;
}
