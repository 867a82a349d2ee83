/**
 * One search result as a list item, by kind: a file's matched lines with the context around them
 * (ranges marked, the first few shown and "show more" for the rest), a path, a file's symbols, a repository, a commit or a diff.
 * Every link is built by web-paths (the server's own URL builders); each item's first link is the
 * one keyboard navigation moves to.
 */
import { blobUrl, repoUrl, repoViewUrl } from './web-paths.js';
import { resultRows, type ChunkMatch, type ResultRow } from './result-rows.js';
import { el, highlighted } from './search-dom.js';
import type { CommitMatch, ContentMatch, LineMatch, PathMatch, RepoMatch, StreamMatch, SymbolFileMatch } from './search-events.js';

/** Matched lines shown before "show more". */
const FIRST_LINES = 3;

export function resultItem(match: StreamMatch): HTMLLIElement {
  switch (match.type) {
    case 'content': return contentItem(match);
    case 'path': return item(fileHeader(match, 'path'));
    case 'symbol': return symbolItem(match);
    case 'repo': return repoItem(match);
    case 'commit': return commitItem(match);
  }
}

function item(header: HTMLElement, ...body: HTMLElement[]): HTMLLIElement {
  return el('li', { class: 'result' }, header, ...body);
}

/** The revision a file match's links name: none for the default branch the index follows. */
function revOf(match: { readonly branches: readonly string[] }): string | null {
  const branch = match.branches[0];
  return branch === undefined || branch === '' || branch === 'HEAD' ? null : branch;
}

function fileHeader(match: ContentMatch | PathMatch | SymbolFileMatch, kind: string, count?: number): HTMLElement {
  const ranges = (match.pathMatches ?? []).map((r) => [r.start.offset, r.end.offset - r.start.offset] as const);
  const rev = revOf(match);
  return el('div', { class: 'result-header' },
    el('a', { class: 'repo', href: repoUrl(match.repository, rev) }, match.repository),
    el('span', { class: 'sep', 'aria-hidden': 'true' }, ' › '),
    el('a', { class: 'path', href: blobUrl(match.repository, rev, match.path), 'data-primary': '' }, highlighted(match.path, ranges)),
    el('span', { class: 'kind muted' }, match.language ? `${kind} · ${match.language}` : kind),
    count === undefined ? null : el('span', { class: 'count muted' }, `${count} ${count === 1 ? 'match' : 'matches'}`));
}

function lineRow(match: ContentMatch, row: ResultRow): HTMLElement {
  const href = blobUrl(match.repository, revOf(match), match.path, { start: row.number, end: row.number });
  const classes = ['line', row.matched ? '' : 'context', row.gap ? 'gap' : ''].filter(Boolean).join(' ');
  const line = el('a', { class: classes, href }, el('span', { class: 'ln' }, String(row.number)), el('code', {}, highlighted(row.text, row.ranges)));
  line.hidden = row.hidden;
  return line;
}

/** Without chunk matches (a stream asked without `cm`), the matched lines alone, each its own chunk. */
function chunksOf(match: ContentMatch): readonly ChunkMatch[] {
  return match.chunkMatches ?? match.lineMatches.map((l: LineMatch) => ({
    content: l.line,
    contentStart: { line: l.lineNumber, column: 0 },
    ranges: l.offsetAndLengths.map(([start, length]) => ({ start: { line: l.lineNumber, column: start }, end: { line: l.lineNumber, column: start + length } })),
  }));
}

function contentItem(match: ContentMatch): HTMLLIElement {
  const { rows, hiddenMatched } = resultRows(chunksOf(match), FIRST_LINES);
  const lines = el('div', { class: 'lines' }, ...rows.filter((row) => !row.hidden).map((row) => lineRow(match, row)));
  // Matched lines, as the engine counts a file's matches in the search's total.
  const result = item(fileHeader(match, 'content', match.lineMatches.length), lines);
  if (hiddenMatched > 0) {
    const more = el('button', { type: 'button', class: 'more' }, `Show ${hiddenMatched} more matched ${hiddenMatched === 1 ? 'line' : 'lines'}`);
    more.addEventListener('click', () => showMore(result, match));
    result.append(more);
  }
  return result;
}

/**
 * Adds a content result's rows after its first few (built only when asked for, so 500 results, and
 * the server's first ones in the page's HTML, stay light) and removes its "show more" button.
 */
export function showMore(item: HTMLElement, match: StreamMatch): void {
  const lines = item.querySelector('.lines');
  if (match.type !== 'content' || lines === null) return;
  lines.append(...resultRows(chunksOf(match), FIRST_LINES).rows.filter((row) => row.hidden).map((row) => lineRow(match, { ...row, hidden: false })));
  item.querySelector('button.more')?.remove();
}

function symbolItem(match: SymbolFileMatch): HTMLLIElement {
  const rev = revOf(match);
  return item(fileHeader(match, 'symbols', match.symbols.length), el('ul', { class: 'symbols' }, ...match.symbols.map((s) =>
    el('li', {}, el('a', { href: blobUrl(match.repository, rev, match.path, { start: s.line, end: s.line }) },
      el('span', { class: 'symbol-kind' }, s.kind.toLowerCase()), ' ', el('code', {}, s.name)),
    s.containerName === '' ? null : el('span', { class: 'muted' }, ` in ${s.containerName}`)))));
}

function repoItem(match: RepoMatch): HTMLLIElement {
  return item(el('div', { class: 'result-header' },
    el('a', { class: 'repo', href: repoUrl(match.repository), 'data-primary': '' }, match.repository),
    el('span', { class: 'kind muted' }, ['repository', match.fork ? 'fork' : '', match.archived ? 'archived' : ''].filter(Boolean).join(' · '))));
}

function commitItem(match: CommitMatch): HTMLLIElement {
  const subject = match.message.split('\n', 1)[0] ?? '';
  const header = el('div', { class: 'result-header' },
    el('a', { class: 'repo', href: repoUrl(match.repository) }, match.repository),
    el('span', { class: 'sep', 'aria-hidden': 'true' }, ' › '),
    el('a', { class: 'path', href: repoViewUrl(match.repository, null, 'commit', match.oid), 'data-primary': '' }, subject),
    el('span', { class: 'kind muted' }, `${match.content.startsWith('```diff') ? 'diff' : 'commit'} ${match.oid.slice(0, 7)} · ${match.authorName} · ${match.authorDate.slice(0, 10)}`));
  return item(header, commitBody(match));
}

/** The fenced content's lines without the fences, each with its ranges; diff lines coloured by their prefix. */
function commitBody(match: CommitMatch): HTMLElement {
  const lines = match.content.split('\n').slice(1, -1);
  const isDiff = match.content.startsWith('```diff');
  const rows = lines.map((text, index) => {
    const ranges = match.ranges.filter(([line]) => line === index + 1).map(([, character, length]) => [character, length] as const);
    const kind = !isDiff ? '' : text.startsWith('+') ? ' added' : text.startsWith('-') ? ' removed' : text.startsWith('@@') ? ' hunk' : '';
    return el('div', { class: `diff-line${kind}` }, el('code', {}, highlighted(text, ranges)));
  });
  return el('div', { class: 'lines commit-lines' }, ...rows);
}
