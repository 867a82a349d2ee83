/**
 * The server's content result rows (src/api/pages/web/result-rows.ts), served to the browser as the
 * asset `result-rows.js` from the same compiled module, so the server's first results and the
 * script's look alike. These are its signatures, for the browser build, which cannot reach outside web/;
 * test/api/pages/web-declarations.ts fails the main build when they differ from the module's.
 */
export interface ChunkLocation {
  readonly line: number;
  readonly column: number;
}
export interface ChunkMatch {
  readonly content: string;
  readonly contentStart: ChunkLocation;
  readonly ranges: readonly { readonly start: ChunkLocation; readonly end: ChunkLocation }[];
}
export interface ResultRow {
  readonly number: number;
  readonly text: string;
  readonly ranges: readonly (readonly [number, number])[];
  readonly matched: boolean;
  readonly gap: boolean;
  readonly hidden: boolean;
}
export interface ResultRows {
  readonly rows: readonly ResultRow[];
  readonly hiddenMatched: number;
}
export declare function resultRows(chunks: readonly ChunkMatch[], shownMatched: number): ResultRows;
