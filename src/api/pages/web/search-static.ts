/**
 * The search page for a browser without JavaScript (`/search?q=…&static=1`, where the page's
 * `<noscript>` sends it): one bounded search on the server with the viewer's principal, its first
 * results rendered as HTML in the same markup the script builds (matched lines with the same lines
 * of context), with progress, notices and the query's error at its position. It never shows what
 * the viewer's principal may not read.
 */
import { isQuarryError, publicMessage, type ErrorCode } from '../../../errors.js';
import type { CommitMatch, FileMatch, SearchMatch, SearchResponse, SkippedNotice } from '../../../model/result.js';
import { html, SafeHtml } from '../kit.js';
import { shapeMatches } from '../../stream/context.js';
import { cutLine, type MatchShape } from '../../stream/events.js';
import { resultRows, type ChunkMatch, type ResultRows } from './result-rows.js';
import type { WebServices } from './services.js';
import type { Viewer } from './viewer.js';
import { blobUrl, repoUrl, repoViewUrl, searchUrl } from './web-paths.js';

/** Both search pages' results: chunks with two lines of context either side, lines cut at 400 characters (the stream's `cm`, `cl` and `max-line-len`). */
export const RESULT_SHAPE: MatchShape = { chunkMatches: true, maxLineLen: 400, contextLines: 2 };

/** Results rendered; the page says when more exist. */
export const STATIC_RESULTS = 30;
/** Matched lines shown per file (the script's "show more" has no equivalent without it). */
const STATIC_LINES = 5;

/** The query's own mistakes, shown as an alert (as the stream API does). */
const ALERT_CODES: readonly ErrorCode[] = ['QUERY_SYNTAX', 'QUERY_UNSUPPORTED', 'PATTERN_UNSUPPORTED', 'PATTERN_INVALID', 'REVISION_NOT_FOUND', 'REPO_NOT_FOUND'];

/** `signal`: the request's, so the search stops when the browser goes away and its pool work is charged to this caller. */
export async function staticResults(services: WebServices, viewer: Viewer, query: string, signal: AbortSignal): Promise<SafeHtml> {
  const started = performance.now();
  let response: SearchResponse;
  try {
    response = await services.search.search({ query, patternType: 'keyword', signal, canRead: viewer.principal.canRead });
  } catch (err) {
    const title = isQuarryError(err) && ALERT_CODES.includes(err.code) ? 'Unable To Process Query' : 'Search failed';
    return errorBox(title, publicMessage(err), query, isQuarryError(err) ? positionOf(err.details) : null);
  }
  const ms = Math.round(performance.now() - started);
  const shown = response.matches.slice(0, STATIC_RESULTS);
  const count = `${response.matchCount} ${response.matchCount === 1 ? 'match' : 'matches'} in ${ms} ms`;
  const status = response.matches.length === 0 ? `No results (${ms} ms).` : response.matches.length > shown.length ? `${count}; showing the first ${shown.length} results` : count;
  const items = resultItems(shown, await shapeMatches(shown, RESULT_SHAPE, services.readFile), RESULT_SHAPE, STATIC_MARKUP);
  return html`<p class="search-status" role="status">${status}</p>
<ul class="notices">${response.skipped.map((s) => notice(s, query))}</ul>
<ol class="results">${new SafeHtml(items)}</ol>`;
}

/**
 * Results as both search pages render them: from the JSON the stream API would send for them
 * (`shaped`, aligned with `matches`: chunks with their context lines), lines cut as it cuts them.
 */
export function resultItems(matches: readonly SearchMatch[], shaped: readonly Record<string, unknown>[], shape: MatchShape, markup: ResultMarkup): string {
  return matches.map((match, index) => {
    const chunks = shaped[index]!['chunkMatches'] as readonly ChunkMatch[] | undefined;
    const rows = chunks === undefined ? null : resultRows(chunks, markup.lines);
    return resultItem(cut(match, shape), { ...markup, timed: markup.timed && index === 0 }, rows).text;
  }).join('');
}

function cut(match: SearchMatch, shape: MatchShape): SearchMatch {
  if (shape.maxLineLen < 0 || match.type === 'repo' || match.type === 'commit') return match;
  return { ...match, lineMatches: match.lineMatches.map((line) => cutLine(line, shape.maxLineLen)) };
}

function positionOf(details: unknown): number | null {
  const position = (details as { position?: unknown } | undefined)?.position;
  return typeof position === 'number' ? position : null;
}

export function errorBox(title: string, message: string, query: string, position: number | null): SafeHtml {
  const marker = position === null || position > query.length ? null
    : html`<pre class="error-position" aria-hidden="true"><code>${query.slice(0, position)}<mark>${query.slice(position, position + 1) || ' '}</mark>${query.slice(position + 1)}</code>
${' '.repeat(position)}^</pre>`;
  return html`<div class="error" role="alert"><strong>${title}</strong><p>${message}</p>${marker}</div>`;
}

function notice(skipped: SkippedNotice, query: string): SafeHtml {
  const suggestion = skipped.suggested
    ? html`<a href="${searchUrl(`${query} ${skipped.suggested.queryExpression}`)}&amp;static=1">${skipped.reason === 'shard-match-limit' ? `add ${skipped.suggested.queryExpression}` : skipped.suggested.title}</a>`
    : null;
  return skipped.reason === 'shard-match-limit'
    ? html`<li class="notice info limit-hit"><strong>More results exist</strong>: ${suggestion} or refine the query.</li>`
    : html`<li class="notice ${skipped.severity}"><strong>${skipped.title}</strong> ${skipped.message} ${suggestion}</li>`;
}

/** Code point ranges of `text` wrapped in <mark>. */
function marked(text: string, ranges: readonly (readonly [number, number])[]): SafeHtml {
  const points = Array.from(text);
  const parts: SafeHtml[] = [];
  let at = 0;
  for (const [offset, length] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const start = Math.max(at, offset);
    const end = Math.min(points.length, offset + length);
    if (end <= start) continue;
    parts.push(html`${points.slice(at, start).join('')}<mark>${points.slice(start, end).join('')}</mark>`);
    at = end;
  }
  parts.push(html`${points.slice(at).join('')}`);
  return html`${parts}`;
}

function revOf(match: FileMatch): string | null {
  const branch = match.branches[0];
  return branch === undefined || branch === '' || branch === 'HEAD' ? null : branch;
}

/** How a result is rendered: the static page's, or the first results of the script's page (search-page-stream.ts). */
export interface ResultMarkup {
  /** Matched lines shown. */
  readonly lines: number;
  /** The rest of a file's lines: counted in a note, or hidden behind a "show more" button the script runs. */
  readonly more: 'note' | 'button';
  /** The first item's first link marked for Element Timing (the page's first result). */
  readonly timed: boolean;
}

const STATIC_MARKUP: ResultMarkup = { lines: STATIC_LINES, more: 'note', timed: false };

const timing = (markup: ResultMarkup): SafeHtml => html`${markup.timed ? new SafeHtml(' elementtiming="first-result"') : ''}`;

/** One result in the markup web/search-results.ts builds, so the script's page and this one look alike. */
/** `rows`: a content match's rows with their context (result-rows.ts), when the search sent chunks. */
export function resultItem(match: SearchMatch, markup: ResultMarkup, rows: ResultRows | null = null): SafeHtml {
  if (match.type === 'repo') {
    const kind = ['repository', match.fork ? 'fork' : '', match.archived ? 'archived' : ''].filter(Boolean).join(' · ');
    return html`<li class="result"><div class="result-header"><a class="repo" href="${repoUrl(match.repository)}" data-primary${timing(markup)}>${match.repository}</a><span class="kind muted">${kind}</span></div></li>`;
  }
  if (match.type === 'commit') return commitItem(match, markup);
  const rev = revOf(match);
  const header = html`<div class="result-header"><a class="repo" href="${repoUrl(match.repository, rev)}"${timing(markup)}>${match.repository}</a><span class="sep" aria-hidden="true"> › </span><a class="path" href="${blobUrl(match.repository, rev, match.path)}" data-primary>${marked(match.path, match.pathMatches)}</a><span class="kind muted">${match.type}${match.language ? ` · ${match.language}` : ''}</span>${match.type === 'path' ? '' : html`<span class="count muted">${match.matchCount} ${match.matchCount === 1 ? 'match' : 'matches'}</span>`}</div>`;
  if (match.type === 'symbol') {
    return html`<li class="result">${header}<ul class="symbols">${(match.symbols ?? []).map((s) => {
      const line = s.range.startLine + 1;
      return html`<li><a href="${blobUrl(match.repository, rev, match.path, { start: line, end: line })}"><span class="symbol-kind">${s.kind.toLowerCase()}</span> <code>${s.name}</code></a>${s.containerName ? html`<span class="muted"> in ${s.containerName}</span>` : ''}</li>`;
    })}</ul></li>`;
  }
  if (rows !== null) return rowsItem(match, header, rows, markup);
  const lines = match.lineMatches.slice(0, markup.lines).map((l) => {
    const line = l.lineNumber + 1;
    return html`<a class="line" href="${blobUrl(match.repository, rev, match.path, { start: line, end: line })}"><span class="ln">${line}</span><code>${marked(l.line, l.offsetAndLengths)}</code></a>`;
  });
  return html`<li class="result">${header}${lines.length > 0 ? html`<div class="lines">${lines}</div>` : ''}${moreLines(match.lineMatches.length - markup.lines, markup)}</li>`;
}

/**
 * A file's further matched lines: counted in a note, or behind a button whose lines the page's
 * script builds from the result's data (they are not in the HTML, which stays small to paint at once).
 */
function moreLines(rest: number, markup: ResultMarkup): SafeHtml | '' {
  if (rest <= 0) return '';
  return markup.more === 'note' ? html`<p class="muted more-note">${rest} more matched ${rest === 1 ? 'line' : 'lines'} in this file</p>`
    : html`<button type="button" class="more">Show ${rest} more matched ${rest === 1 ? 'line' : 'lines'}</button>`;
}

/** The shown rows (matched lines and their context) of a content match. */
function rowsItem(match: FileMatch, header: SafeHtml, { rows, hiddenMatched }: ResultRows, markup: ResultMarkup): SafeHtml {
  const rev = revOf(match);
  const lines = rows.filter((row) => !row.hidden).map((row) => {
    const classes = ['line', row.matched ? '' : 'context', row.gap ? 'gap' : ''].filter(Boolean).join(' ');
    return html`<a class="${classes}" href="${blobUrl(match.repository, rev, match.path, { start: row.number, end: row.number })}"><span class="ln">${row.number}</span><code>${marked(row.text, row.ranges)}</code></a>`;
  });
  return html`<li class="result">${header}<div class="lines">${lines}</div>${moreLines(hiddenMatched, markup)}</li>`;
}

function commitItem(match: CommitMatch, markup: ResultMarkup): SafeHtml {
  const subject = match.message.split('\n', 1)[0] ?? '';
  const preview = match.diffPreview;
  const text = preview ? preview.value : match.message;
  const ranges = preview ? preview.ranges : match.ranges;
  const rows = text.split('\n').map((line, index) => {
    const kind = !preview ? '' : line.startsWith('+') ? ' added' : line.startsWith('-') ? ' removed' : line.startsWith('@@') ? ' hunk' : '';
    return html`<div class="diff-line${kind}"><code>${marked(line, ranges.filter(([l]) => l === index).map(([, c, n]) => [c, n] as const))}</code></div>`;
  });
  return html`<li class="result"><div class="result-header"><a class="repo" href="${repoUrl(match.repository)}"${timing(markup)}>${match.repository}</a><span class="sep" aria-hidden="true"> › </span><a class="path" href="${repoViewUrl(match.repository, null, 'commit', match.oid)}" data-primary>${subject}</a><span class="kind muted">${preview ? 'diff' : 'commit'} ${match.oid.slice(0, 7)} · ${match.authorName} · ${match.authorDate.slice(0, 10)}</span></div><div class="lines commit-lines">${rows}</div></li>`;
}
