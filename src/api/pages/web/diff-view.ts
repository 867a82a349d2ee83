/**
 * Changed files as the commit and comparison pages show them: per file its path, status and
 * counts, then each hunk's lines with their old and new numbers and a +/- mark. Pure; capped.
 */
import { displayPath, type FileDiff } from '../../../history/diff-model.js';
import { html, type SafeHtml } from '../kit.js';

/** Past this many diff lines in all, the remaining files are listed without their lines. */
const MAX_DIFF_LINES = 10_000;

export function renderDiff(files: readonly FileDiff[], fileHref: (file: FileDiff) => string | null): SafeHtml {
  let budget = MAX_DIFF_LINES;
  const summary = html`<p>${files.length} changed ${files.length === 1 ? 'file' : 'files'}, <span class="add">+${files.reduce((n, f) => n + f.added, 0)}</span> <span class="del">−${files.reduce((n, f) => n + f.deleted, 0)}</span></p>`;
  const sections = files.map((file, i) => {
    const lines = file.hunks.reduce((n, h) => n + h.lines.length, 0);
    const shown = budget >= lines;
    if (shown) budget -= lines;
    return fileSection(file, i, shown, fileHref(file));
  });
  return html`${summary}${sections}`;
}

function fileSection(file: FileDiff, index: number, shown: boolean, href: string | null): SafeHtml {
  const path = displayPath(file);
  const renamed = file.status === 'renamed' || file.status === 'copied' ? html` <span class="muted">(from ${file.oldPath})</span>` : '';
  const name = href === null ? html`${path}` : html`<a href="${href}">${path}</a>`;
  const heading = html`<h3 id="diff-${index}">${name}${renamed} <span class="status">${file.status}</span> <span class="add">+${file.added}</span> <span class="del">−${file.deleted}</span></h3>`;
  if (file.binary) return html`<section class="file-diff">${heading}<p class="muted">Binary file changed.</p></section>`;
  if (!shown) return html`<section class="file-diff">${heading}<p class="muted">This diff is not shown: the page already shows as many changed lines as it can.</p></section>`;
  const hunks = file.hunks.map((h) => {
    const rows = h.lines.map((l) => {
      const cls = l.kind === '+' ? 'add' : l.kind === '-' ? 'del' : 'ctx';
      return html`<tr class="${cls}"><td class="ln">${l.oldLine ?? ''}</td><td class="ln">${l.newLine ?? ''}</td><td class="lc"><span class="mark" aria-hidden="true">${l.kind}</span>${l.text}</td></tr>`;
    });
    const section = `@@ -${h.oldRange.startLine},${h.oldRange.lines} +${h.newRange.startLine},${h.newRange.lines} @@${h.section === '' ? '' : ` ${h.section}`}`;
    return html`<tr class="hunk"><td colspan="3">${section}</td></tr>${rows}`;
  });
  return html`<section class="file-diff">${heading}<table class="diff"><caption class="sr-only">Changes to ${path}: removed lines marked −, added lines +</caption><thead class="sr-only"><tr><th scope="col">Old line</th><th scope="col">New line</th><th scope="col">Text</th></tr></thead><tbody>${hunks}</tbody></table></section>`;
}
