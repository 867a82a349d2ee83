/**
 * The tree view (`/<repo>@<rev>/-/tree/<path>`, and the repository's root at `/<repo>`): the
 * directory's entries, directories first, and at the root the README as preformatted text.
 */
import type { Reply } from '../../../http/respond.js';
import type { TreeItem } from '../../../model/repos.js';
import { html, type SafeHtml } from '../kit.js';
import { breadcrumbs, resolveAt, sendPathNotFound, sendRepoPage, sendRevisionNotFound, type RepoAt } from './repo-page.js';
import type { RepoViewRequest } from './repo-view.js';
import { revisionPicker } from './revision-picker.js';
import type { WebServices } from './services.js';
import { isBinary, shownPart } from './text-file.js';
import { repoViewUrl } from './web-paths.js';

const README = /^readme(\.(md|markdown|txt|rst|adoc))?$/i;

export async function treeView(services: WebServices, view: RepoViewRequest, reply: Reply): Promise<void> {
  const at = await resolveAt(services, view);
  if (at === null) return sendRevisionNotFound(reply, view, view.location.rev);
  const path = view.location.path;
  const entries = await services.repos.listTree(at.repo, at.commit, path, false);
  if (entries === null) {
    const file = await services.repos.readBlob(at.repo, at.commit, path);
    if (file !== null) return reply.send(302, '', { Location: repoViewUrl(at.repo, at.rev, 'blob', path) });
    return sendPathNotFound(reply, view, at, `No directory named ${path} exists`);
  }
  const sorted = [...entries].sort((a, b) => Number(b.isDirectory) - Number(a.isDirectory) || (a.path < b.path ? -1 : 1));
  const rows = sorted.map((e) => entryRow(at, e));
  const parent = path === '' ? '' : html`<li><a href="${repoViewUrl(at.repo, at.rev, 'tree', path.split('/').slice(0, -1).join('/'))}">..</a></li>`;
  const listing = html`<nav aria-label="Files"><ul class="tree">${parent}${rows}</ul></nav>`;
  const empty = entries.length === 0 ? html`<p class="muted">This directory is empty.</p>` : '';
  const picker = await revisionPicker(services, at, 'tree', path);
  const readme = path === '' ? await readmeOf(services, at, entries) : '';
  sendRepoPage(reply, view, at, { title: path === '' ? 'Code' : path, tab: 'code', picker, content: html`${breadcrumbs(at, path)}${listing}${empty}${readme}` });
}

function entryRow(at: RepoAt, entry: TreeItem): SafeHtml {
  const name = entry.path.slice(entry.path.lastIndexOf('/') + 1);
  const href = repoViewUrl(at.repo, at.rev, entry.isDirectory ? 'tree' : 'blob', entry.path);
  return html`<li class="${entry.isDirectory ? 'dir' : 'file'}"><a href="${href}">${name}${entry.isDirectory ? '/' : ''}</a></li>`;
}

async function readmeOf(services: WebServices, at: RepoAt, entries: readonly TreeItem[]): Promise<SafeHtml | string> {
  const entry = entries.find((e) => !e.isDirectory && README.test(e.path));
  if (entry === undefined) return '';
  const bytes = await services.repos.readBlob(at.repo, at.commit, entry.path);
  if (bytes === null || isBinary(bytes)) return '';
  const text = new TextDecoder().decode(shownPart(bytes).shown);
  return html`<section class="readme" aria-labelledby="readme-title"><h2 id="readme-title"><a href="${repoViewUrl(at.repo, at.rev, 'blob', entry.path)}">${entry.path}</a></h2><pre>${text}</pre></section>`;
}
