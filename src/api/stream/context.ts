/**
 * Context lines for chunk matches (`cm=true&cl=N`, reference §3.4): the N lines around each matched
 * line, read from the file at the match's commit (the index holds it, so no git process runs). A
 * file that cannot be read gets its chunks without context. Reads only.
 */
import type { SearchMatch } from '../../model/result.js';
import { streamMatch, type MatchShape } from './events.js';

/** A file's bytes at a commit, or null when it is not there. */
export type FileReader = (repo: string, commit: string, path: string) => Promise<Uint8Array | null>;

/** The matches in the stream API's JSON, content matches' chunks with `shape.contextLines` lines around them. */
export async function shapeMatches(matches: readonly SearchMatch[], shape: MatchShape, readFile: FileReader | undefined): Promise<Record<string, unknown>[]> {
  const wantsContext = shape.chunkMatches && shape.contextLines > 0 && readFile !== undefined;
  return Promise.all(matches.map(async (match) => {
    if (!wantsContext || match.type !== 'content') return streamMatch(match, shape);
    const wanted = new Set<number>();
    for (const line of match.lineMatches) {
      for (let n = Math.max(0, line.lineNumber - shape.contextLines); n <= line.lineNumber + shape.contextLines; n++) wanted.add(n);
    }
    return streamMatch(match, shape, await fileLines(readFile, match, wanted));
  }));
}

/**
 * The `wanted` lines of the file (0-based numbers; past its end are left out). Only those are
 * decoded: a file's line starts are found with the byte search, so a match in a large file costs
 * little more than one in a small one.
 */
async function fileLines(readFile: FileReader, match: { repository: string; commit: string; path: string }, wanted: ReadonlySet<number>): Promise<ReadonlyMap<number, string> | null> {
  let bytes: Uint8Array | null;
  try {
    bytes = await readFile(match.repository, match.commit, match.path);
  } catch {
    return null;
  }
  if (bytes === null) return null;
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const last = Math.max(...wanted);
  const lines = new Map<number, string>();
  let start = 0;
  for (let n = 0; n <= last && start < file.length; n++) {
    const newline = file.indexOf(10, start);
    const end = newline < 0 ? file.length : newline;
    if (wanted.has(n)) lines.set(n, file.toString('utf8', start, end > start && file[end - 1] === 13 ? end - 1 : end));
    start = end + 1;
  }
  return lines;
}
