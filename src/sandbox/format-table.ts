/**
 * text.format_table: rows (tables keyed by column, or lists in column order) as an aligned
 * Markdown table, numbers right-aligned. Pure text work over plain values.
 */
import type { Plain } from './lua-values.js';

export class TableFormatError extends Error {}

export function formatTable(rows: Plain, columns: Plain): string {
  const list = asList(rows, 'rows must be a list of rows (tables)');
  const names = columns === null ? defaultColumns(list) : asList(columns, 'columns must be a list of column names').map((c) => cellText(c));
  if (names.length === 0) throw new TableFormatError('no columns: pass the column names, e.g. text.format_table(rows, {"name", "count"})');
  const cells = list.map((row, r) => names.map((name, c) => cellOf(row, name, c, r)));
  const numeric = names.map((_, c) => cells.length > 0 && cells.every((row) => row[c]!.numeric || row[c]!.text === ''));
  const widths = names.map((name, c) => Math.max(3, width(name), ...cells.map((row) => width(row[c]!.text))));
  const line = (texts: readonly string[]): string => `| ${texts.map((t, c) => (numeric[c] ? pad(t, widths[c]!, true) : pad(t, widths[c]!, false))).join(' | ')} |\n`;
  const rule = `|${widths.map((w, c) => (numeric[c] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|\n`;
  return line(names.map(escape)) + rule + cells.map((row) => line(row.map((cell) => cell.text))).join('');
}

interface Cell {
  readonly text: string;
  readonly numeric: boolean;
}

function asList(value: Plain, message: string): readonly Plain[] {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') {
    // A list with named fields as well (a search result cut at a limit carries `truncated`) reads
    // as an object: its rows are its sequence part, as ipairs sees them. An empty table reads as {}.
    const fields = value as Record<string, Plain>;
    const rows: Plain[] = [];
    for (let i = 1; Object.hasOwn(fields, String(i)); i++) rows.push(fields[String(i)]!);
    if (rows.length > 0 || Object.keys(fields).length === 0) return rows;
  }
  throw new TableFormatError(message);
}

function defaultColumns(rows: readonly Plain[]): string[] {
  const first = rows[0];
  if (Array.isArray(first)) return first.map((_, i) => String(i + 1));
  if (first !== null && typeof first === 'object') return Object.keys(first).sort();
  throw new TableFormatError('pass the column names as the second argument, or rows that are tables');
}

function cellOf(row: Plain, name: string, index: number, rowIndex: number): Cell {
  if (row === null || typeof row !== 'object') throw new TableFormatError(`row ${rowIndex + 1} is not a table`);
  const value = Array.isArray(row) ? row[index] : (row as Readonly<Record<string, Plain>>)[name];
  return { text: escape(cellText(value ?? null)), numeric: typeof value === 'number' };
}

function cellText(value: Plain): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A cell stays on one line and cannot end the cell early. */
function escape(text: string): string {
  return text.replace(/\r?\n|\r/g, ' ').replace(/\|/g, '\\|');
}

/** Code points, so a name with accents lines up like one without. */
function width(text: string): number {
  return [...text].length;
}

function pad(text: string, to: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, to - width(text)));
  return right ? fill + text : text + fill;
}
