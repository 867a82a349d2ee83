/**
 * Final ordering of file matches across shards: score from the worker's signals, then shorter
 * paths, then path order, repository and commit, so equal inputs always print in the same order
 * (pages of an answer rely on it) whatever order the shards finished in.
 */
import type { FileMatch } from '../model/result.js';

export function rankFileMatches(files: FileMatch[]): FileMatch[] {
  return files.sort((a, b) => b.score - a.score || a.path.length - b.path.length || byCodeUnits(a.path, b.path) || a.repository.localeCompare(b.repository) || byCodeUnits(a.commit, b.commit));
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Keeps matches in rank order until `limit` are reached, cutting the last file's lines if needed. */
export function truncateToLimit(files: readonly FileMatch[], limit: number): { files: FileMatch[]; cut: boolean } {
  const out: FileMatch[] = [];
  let total = 0;
  for (const f of files) {
    const room = limit - total;
    if (room <= 0) return { files: out, cut: true };
    if (f.matchCount > room) {
      out.push({ ...f, lineMatches: f.lineMatches.slice(0, room), matchCount: room, ...(f.type === 'symbol' && f.symbols ? { symbols: f.symbols.slice(0, room) } : {}) });
      return { files: out, cut: true };
    }
    out.push(f);
    total += f.matchCount;
  }
  return { files: out, cut: false };
}
