/**
 * A content result's rows from its chunk matches (the stream API's JSON): matched lines with their
 * ranges, the context lines around them, and which rows wait behind "show more". Pure and imports
 * nothing: the server's first results and the page's script (as the asset result-rows.js) share it.
 */
export interface ChunkLocation {
  /** 0-based. */
  readonly line: number;
  readonly column: number;
}

export interface ChunkMatch {
  readonly content: string;
  readonly contentStart: ChunkLocation;
  readonly ranges: readonly { readonly start: ChunkLocation; readonly end: ChunkLocation }[];
}

export interface ResultRow {
  /** 1-based. */
  readonly number: number;
  readonly text: string;
  /** `[start, length]` in code points; none on a context line. */
  readonly ranges: readonly (readonly [number, number])[];
  readonly matched: boolean;
  /** The first row of a chunk after another: lines of the file are skipped before it. */
  readonly gap: boolean;
  /** Behind "show more". */
  readonly hidden: boolean;
}

export interface ResultRows {
  readonly rows: readonly ResultRow[];
  /** Matched rows behind "show more". */
  readonly hiddenMatched: number;
}

/** Rows up to the `shownMatched`-th matched line and the context after it are shown; the rest are hidden. */
export function resultRows(chunks: readonly ChunkMatch[], shownMatched: number): ResultRows {
  const rows: ResultRow[] = [];
  let matchedShown = 0;
  let hiddenMatched = 0;
  let cut = false;
  chunks.forEach((chunk, chunkIndex) => {
    if (chunkIndex > 0 && matchedShown >= shownMatched) cut = true;
    chunk.content.split('\n').forEach((text, index) => {
      const line = chunk.contentStart.line + index;
      const ranges = chunk.ranges.filter((r) => r.start.line === line).map((r): [number, number] => {
        const end = r.end.line === line ? r.end.column : Array.from(text).length;
        return [r.start.column, end - r.start.column];
      });
      const matched = ranges.length > 0;
      if (matched && matchedShown >= shownMatched) cut = true;
      if (matched && cut) hiddenMatched++;
      else if (matched) matchedShown++;
      rows.push({ number: line + 1, text, ranges, matched, gap: chunkIndex > 0 && index === 0, hidden: cut });
    });
  });
  return { rows, hiddenMatched };
}
