/**
 * Find references from the file view (`/<repo>@<rev>/-/references/<path>?line=&character=`): the
 * uses of the clicked name's definition across the repositories the viewer may read, by the MCP
 * find_references engine, each line linked; a page at a time (`offset`). JSON for the panel on request.
 */
import type { Reply } from '../../../http/respond.js';
import { findReferences, type ReferenceSite } from '../../../symbols/navigation/references.js';
import { html } from '../kit.js';
import { describeSite, resolveClick } from './nav-request.js';
import { siteUrl, wantsJson } from './navigation.js';
import { sendRepoPage, type RepoAt } from './repo-page.js';
import type { RepoViewRequest } from './repo-view.js';
import type { WebServices } from './services.js';

export const REFERENCES_PER_PAGE = 50;
const MAX_LINE_CHARS = 240;

interface ReferenceJson {
  readonly repo: string;
  readonly path: string;
  readonly line: number;
  readonly character: number;
  readonly text: string;
  readonly url: string;
  /** False for a use matched by name only. */
  readonly resolved: boolean;
}

export async function referencesView(services: WebServices, view: RepoViewRequest, reply: Reply): Promise<void> {
  const click = await resolveClick(services, view, reply);
  if (click === null) return;
  const { at, start, answer, name } = click;
  const offset = Math.max(0, Math.min(Number(view.request.query.get('offset') ?? 0) || 0, 1_000_000));
  const found = findReferences(start.resolver, answer.best.site, { offset, limit: REFERENCES_PER_PAGE });
  const [definition, references] = await Promise.all([describeSite(services, at, answer.best.site), describeReferences(services, at, found.sites)]);
  const all = found.total + found.unresolved;
  const nextOffset = offset + found.sites.length;
  const query = new URLSearchParams(view.request.query);
  query.set('offset', String(nextOffset));
  const next = found.sites.length > 0 && nextOffset < all ? `${view.request.path}?${query}` : null;
  if (wantsJson(view.request.headers['accept'])) {
    return reply.json(200, { name, definition, total: found.total, unresolved: found.unresolved, references, next }, { 'Cache-Control': 'no-store' });
  }
  const items = references.map((r) => html`<li${r.resolved ? '' : html` class="name-match"`}><a href="${r.url}">${r.repo} – ${r.path}:${r.line}</a><pre><code>${r.text}</code></pre></li>`);
  const unresolved = found.unresolved === 0 ? '' : html`, and ${found.unresolved} same-named ${found.unresolved === 1 ? 'use' : 'uses'} matched by name only (listed last)`;
  sendRepoPage(reply, view, at, {
    title: `References to ${name}`, tab: 'code',
    content: html`<h2>References to <code>${name}</code></h2><p>Defined at <a href="${definition.url}">${definition.repo} – ${definition.path}:${definition.line}</a>: <code>${definition.signature}</code></p>
<p>${found.total} ${found.total === 1 ? 'reference' : 'references'}${unresolved}.${all > 0 ? ` Showing ${offset + 1}-${nextOffset}.` : ''}</p>
<ol class="refs" start="${offset + 1}">${items}</ol>${next === null ? '' : html`<p><a rel="next" href="${next}">More references</a></p>`}`,
  });
}

/** Each reference with its line's text, each file read once. */
async function describeReferences(services: WebServices, at: RepoAt, sites: readonly ReferenceSite[]): Promise<ReferenceJson[]> {
  const files = new Map<string, Promise<string[]>>();
  const linesOf = (site: ReferenceSite): Promise<string[]> => {
    const key = `${site.file.repo}\0${site.file.commit}\0${site.file.path}`;
    let lines = files.get(key);
    if (lines === undefined) {
      lines = services.repos.readBlob(site.file.repo, site.file.commit, site.file.path).then((b) => (b === null ? [] : new TextDecoder().decode(b).split('\n')));
      files.set(key, lines);
    }
    return lines;
  };
  return Promise.all(sites.map(async (site) => {
    const line = site.range.startLine + 1;
    const text = ((await linesOf(site))[site.range.startLine] ?? '').replace(/\r$/, '').trim().slice(0, MAX_LINE_CHARS);
    return { repo: site.file.repo, path: site.file.path, line, character: site.range.startColumn + 1, text, url: siteUrl(at, site.file, line), resolved: site.resolved };
  }));
}
