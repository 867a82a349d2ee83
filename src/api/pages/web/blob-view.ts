/**
 * The file view (`/<repo>@<rev>/-/blob/<path>`): numbered lines with `#L10` anchors, the range an
 * MCP link names (`?L10-20`) highlighted, syntax highlighting and the symbol tables both computed
 * in the worker pool, identifiers linked to their definitions. Binary files say so; long files are cut.
 */
import type { Reply } from '../../../http/respond.js';
import { HIGHLIGHT_CLASSES, HIGHLIGHT_MAX_BYTES } from '../../../symbols/highlight.js';
import { html } from '../kit.js';
import { renderCodeLines } from './code-lines.js';
import { fileSymbolsAt } from './navigation.js';
import { breadcrumbs, resolveAt, sendPathNotFound, sendRepoPage, sendRevisionNotFound } from './repo-page.js';
import type { RepoViewRequest } from './repo-view.js';
import { revisionPicker } from './revision-picker.js';
import type { WebServices } from './services.js';
import { isBinary, lineStarts, shownPart } from './text-file.js';
import { repoViewUrl, type LineRange } from './web-paths.js';

export async function blobView(services: WebServices, view: RepoViewRequest, reply: Reply): Promise<void> {
  const at = await resolveAt(services, view);
  if (at === null) return sendRevisionNotFound(reply, view, view.location.rev);
  const path = view.location.path;
  const bytes = path === '' ? null : await services.repos.readBlob(at.repo, at.commit, path);
  if (bytes === null) {
    const directory = path === '' ? null : await services.repos.listTree(at.repo, at.commit, path, false);
    if (directory !== null) return reply.send(302, '', { Location: repoViewUrl(at.repo, at.rev, 'tree', path) });
    return sendPathNotFound(reply, view, at, `No file named ${path === '' ? '(none given)' : path} exists`);
  }
  const raw = repoViewUrl(at.repo, at.rev, 'raw', path);
  const picker = await revisionPicker(services, at, 'blob', path);
  const head = html`${breadcrumbs(at, path)}<p class="file-meta muted">${bytes.length.toLocaleString('en')} bytes · <a href="${raw}">Raw</a> · <a href="${repoViewUrl(at.repo, at.rev, 'commits', path)}">History</a></p>`;
  if (isBinary(bytes)) {
    return sendRepoPage(reply, view, at, { title: path, tab: 'code', picker, content: html`${head}<p class="note">Binary file: its content is not shown. <a href="${raw}">Download it</a>.</p>` });
  }
  const { shown, cut } = shownPart(bytes);
  const highlighted = shown.length <= HIGHLIGHT_MAX_BYTES;
  const [runs, tables] = await Promise.all([
    highlighted ? services.highlight(path, shown, view.request.signal) : Promise.resolve(null),
    highlighted ? fileSymbolsAt(services, at, path, bytes) : Promise.resolve({ symbols: null }),
  ]);
  const text = new TextDecoder().decode(shown);
  const definition = repoViewUrl(at.repo, at.rev, 'definition', path);
  const code = renderCodeLines({
    text, starts: lineStarts(text), runs, classes: HIGHLIGHT_CLASSES, symbols: tables.symbols, selected: selectedRange(view),
    definitionHref: (line, character) => `${definition}?line=${line}&character=${character}`,
  });
  const notes = html`${cut ? html`<p class="note">This file is ${bytes.length.toLocaleString('en')} bytes: the first ${shown.length.toLocaleString('en')} are shown. <a href="${raw}">Download it</a> for the rest.</p>` : ''}${!highlighted && !cut ? html`<p class="note">This file is too large to highlight: it is shown plain.</p>` : ''}`;
  const references = repoViewUrl(at.repo, at.rev, 'references', path);
  sendRepoPage(reply, view, at, {
    title: path, tab: 'code', picker, scripts: ['blob.js'],
    content: html`${head}${notes}<div class="blob" data-references="${references}">${code}</div><aside id="refs-panel" class="refs-panel" aria-live="polite" hidden></aside>`,
  });
}

/** The range to highlight from the path (`%3FL10-20`, as MCP answers write it) or a query `?L10-20`. */
function selectedRange(view: RepoViewRequest): LineRange | null {
  if (view.location.range !== null) return view.location.range;
  for (const key of view.request.query.keys()) {
    const m = /^L(\d+)(?:-L?(\d+))?$/.exec(key);
    if (m !== null) return { start: Number(m[1]), end: Math.max(Number(m[1]), Number(m[2] ?? m[1])) };
  }
  return null;
}
