/**
 * Agreement before timing: Quarry's (path, line) rows against each contender's, on the files both
 * searched. Every difference left after the documented skips is a failure, never a footnote.
 */
import { rowPath, type RowSet } from './tools/rows.js';

export interface Comparison {
  readonly contender: string;
  /** Rows both sides kept once restricted to files both searched. */
  readonly quarryRows: number;
  readonly contenderRows: number;
  /** Rows set aside by the restriction, with the reason. */
  readonly excludedQuarry: number;
  readonly excludedContender: number;
  readonly restriction: string;
  readonly onlyQuarry: readonly string[];
  readonly onlyContender: readonly string[];
}

export interface ComparisonInput {
  readonly contender: string;
  readonly restriction: string;
  readonly quarry: RowSet;
  readonly other: RowSet;
  /** Whether a file Quarry matched in was searched by the contender. */
  readonly contenderSearched: (path: string) => boolean;
  /** Whether a file the contender matched in was indexed by Quarry. */
  readonly quarrySearched: (path: string) => boolean;
}

function restrict(rows: RowSet, keep: (path: string) => boolean): { kept: Set<string>; dropped: number } {
  const kept = new Set<string>();
  let dropped = 0;
  for (const row of rows) {
    if (keep(rowPath(row))) kept.add(row);
    else dropped++;
  }
  return { kept, dropped };
}

const byPathThenLine = (a: string, b: string): number => {
  const pa = rowPath(a);
  const pb = rowPath(b);
  if (pa !== pb) return pa < pb ? -1 : 1;
  return Number(a.slice(pa.length + 1)) - Number(b.slice(pb.length + 1));
};

export function compareRows(input: ComparisonInput): Comparison {
  const q = restrict(input.quarry, input.contenderSearched);
  const o = restrict(input.other, input.quarrySearched);
  return {
    contender: input.contender,
    restriction: input.restriction,
    quarryRows: q.kept.size,
    contenderRows: o.kept.size,
    excludedQuarry: q.dropped,
    excludedContender: o.dropped,
    onlyQuarry: [...q.kept].filter((r) => !o.kept.has(r)).sort(byPathThenLine),
    onlyContender: [...o.kept].filter((r) => !q.kept.has(r)).sort(byPathThenLine),
  };
}

export function agrees(c: Comparison): boolean {
  return c.onlyQuarry.length === 0 && c.onlyContender.length === 0;
}

/** The first `limit` differing rows, in path then line order, labelled with the side that has them. */
export function diffSample(c: Comparison, limit = 20): string[] {
  const rows = [
    ...c.onlyQuarry.map((r) => ({ r, side: 'only quarry' })),
    ...c.onlyContender.map((r) => ({ r, side: `only ${c.contender}` })),
  ].sort((a, b) => byPathThenLine(a.r, b.r));
  return rows.slice(0, limit).map(({ r, side }) => `  ${side.padEnd(14)} ${r}`);
}
