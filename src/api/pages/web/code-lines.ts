/**
 * A file's lines as the file view's markup: a line-number link per line (`#L10`), highlight runs as
 * classed spans, and each identifier the symbol tables know as a link to its definition. Pure.
 */
import type { FileSymbols, SourceRange } from '../../../model/symbols.js';
import { escapeHtml, SafeHtml } from '../kit.js';
import type { LineRange } from './web-paths.js';

export interface CodeInput {
  readonly text: string;
  /** Line start offsets (text-file.ts lineStarts). */
  readonly starts: readonly number[];
  /** `[start, end, class]` runs over the text (symbols/highlight.ts), or null: plain. */
  readonly runs: Uint32Array | null;
  readonly classes: readonly string[];
  readonly symbols: FileSymbols | null;
  /** The link of the identifier at a 1-based line and character. */
  readonly definitionHref: (line: number, character: number) => string;
  readonly selected: LineRange | null;
}

interface Token {
  readonly start: number;
  readonly end: number;
}

/** Identifier ranges by 0-based line: references and definitions' own names, one line each. */
function identifiersByLine(symbols: FileSymbols | null): Map<number, Token[]> {
  const byLine = new Map<number, Token[]>();
  if (symbols === null) return byLine;
  const add = (r: SourceRange): void => {
    if (r.startLine !== r.endLine || r.endColumn <= r.startColumn) return;
    const list = byLine.get(r.startLine) ?? [];
    list.push({ start: r.startColumn, end: r.endColumn });
    byLine.set(r.startLine, list);
  };
  for (const r of symbols.references) add(r.range);
  for (const d of symbols.definitions) add(d.nameRange);
  for (const list of byLine.values()) list.sort((a, b) => a.start - b.start);
  return byLine;
}

export function renderCodeLines(input: CodeInput): SafeHtml {
  const { text, starts, runs, selected } = input;
  const identifiers = identifiersByLine(input.symbols);
  let run = 0;
  const rows: string[] = [];
  for (let line = 0; line < starts.length; line++) {
    const from = starts[line]!;
    const to = line + 1 < starts.length ? starts[line + 1]! - 1 : text.endsWith('\n') ? text.length - 1 : text.length;
    const lineText = text.slice(from, to).replace(/\r$/, '');
    while (runs !== null && run < runs.length / 3 && runs[run * 3 + 1]! <= from) run++;
    const number = line + 1;
    const sel = selected !== null && number >= selected.start && number <= selected.end ? ' class="sel"' : '';
    const body = renderLine(input, lineText, from, run, identifiers.get(line) ?? [], number);
    rows.push(`<tr id="L${number}"${sel}><td class="ln"><a href="#L${number}">${number}</a></td><td class="lc">${body}</td></tr>`);
  }
  return new SafeHtml(`<table class="code" role="presentation"><tbody>${rows.join('\n')}</tbody></table>`);
}

/** Segments cut at every run and identifier edge; an identifier's segments inside one link. */
function renderLine(input: CodeInput, lineText: string, offset: number, firstRun: number, ids: readonly Token[], number: number): string {
  const { runs, classes } = input;
  const cuts = new Set<number>([0, lineText.length]);
  const lineRuns: { start: number; end: number; cls: string }[] = [];
  for (let r = firstRun; runs !== null && r < runs.length / 3 && runs[r * 3]! < offset + lineText.length; r++) {
    const start = Math.max(0, runs[r * 3]! - offset);
    const end = Math.min(lineText.length, runs[r * 3 + 1]! - offset);
    if (end > start) lineRuns.push({ start, end, cls: classes[runs[r * 3 + 2]!] ?? '' });
  }
  for (const t of [...lineRuns, ...ids]) cuts.add(Math.min(t.start, lineText.length)).add(Math.min(t.end, lineText.length));
  const edges = [...cuts].sort((a, b) => a - b);
  let out = '';
  let openId: Token | null = null;
  for (let i = 0; i + 1 < edges.length; i++) {
    const a = edges[i]!;
    const b = edges[i + 1]!;
    const id = ids.find((t) => t.start <= a && a < t.end) ?? null;
    if (id !== openId) {
      if (openId !== null) out += '</a>';
      if (id !== null) out += `<a class="id" href="${escapeHtml(input.definitionHref(number, id.start + 1))}">`;
      openId = id;
    }
    const cls = lineRuns.find((r) => r.start <= a && a < r.end)?.cls ?? '';
    const segment = escapeHtml(lineText.slice(a, b));
    out += cls === '' ? segment : `<span class="hl-${cls}">${segment}</span>`;
  }
  if (openId !== null) out += '</a>';
  return out;
}
