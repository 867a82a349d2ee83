/**
 * Code chunks for the search tools (Sourcegraph's limits, reference §1.4): each hit line with one
 * line of context either side (a definition with the start of its body), overlapping chunks merged,
 * the best three per file shown in line order, 1024 characters per chunk and 256 per line. Pure
 * text work: it never reads files or runs searches.
 */
import { fileHeader, numberLines } from '../format.js';

export const CONTEXT_LINES = 1;
export const MAX_CHUNKS_PER_FILE = 3;
export const MAX_CHUNK_CHARS = 1024;
export const MAX_LINE_CHARS = 256;
/** Lines shown after a definition the question names: the start of its body answers more than its header. */
export const BODY_LINES = 8;
/** Between two chunks of a file that are not adjacent, so an agent does not read them as one passage. */
export const CHUNK_SEPARATOR = '...\n';

/** A line worth showing (0-based, as the engine counts) and how much it matters. */
export interface LineHit {
  readonly line: number;
  readonly weight: number;
  /** The line defines what the search looked for: show the start of its body too. */
  readonly definition?: boolean;
}

/** Lines [start, end], 0-based and inclusive; weight sums the hits inside. */
export interface Chunk {
  readonly start: number;
  readonly end: number;
  readonly weight: number;
}

/** Chunks in relevance order: heaviest first, then earlier in the file. */
export function buildChunks(hits: readonly LineHit[], lineCount: number, context = CONTEXT_LINES): Chunk[] {
  const sorted = [...hits].filter((h) => h.line >= 0 && h.line < lineCount).sort((a, b) => a.line - b.line);
  const merged: { start: number; end: number; weight: number }[] = [];
  for (const hit of sorted) {
    const start = Math.max(0, hit.line - context);
    const end = Math.min(lineCount - 1, hit.line + (hit.definition === true && context > 0 ? BODY_LINES : context));
    const last = merged[merged.length - 1];
    // Touching chunks merge too: two chunks back to back read as one with a repeated header line.
    if (last !== undefined && start <= last.end + 1) {
      last.end = Math.max(last.end, end);
      last.weight += hit.weight;
    } else {
      merged.push({ start, end, weight: hit.weight });
    }
  }
  return merged.sort((a, b) => b.weight - a.weight || a.start - b.start);
}

/** Numbered lines of one chunk, cut at a line boundary so the chunk stays within MAX_CHUNK_CHARS. */
export function renderChunk(lines: readonly string[], chunk: Chunk): { text: string; cut: boolean } {
  let text = '';
  for (let n = chunk.start; n <= chunk.end; n++) {
    const numbered = numberLines([lines[n] ?? ''], n + 1, MAX_LINE_CHARS);
    if (text !== '' && text.length + numbered.length > MAX_CHUNK_CHARS) return { text, cut: true };
    text += numbered;
  }
  return { text, cut: false };
}

export interface FileSection {
  readonly text: string;
  /** Chunks beyond the per-file limit. */
  readonly chunksLeftOut: number;
  readonly chunksCut: number;
}

/**
 * What the 0-based lines start..end sit in, said as a reader names it (`in method Router.handle`):
 * the innermost function or type whose header the lines do not show themselves; null at file level
 * or when unknown.
 */
export type EnclosingAt = (start: number, end: number) => string | null;

/**
 * A file's header and its best chunks, each under the function or type it sits in when that is
 * known and differs from the chunk before. `lines` is the file's text split into lines; when the
 * file could not be read, the caller passes the hit lines alone and `context` 0.
 */
export function renderFileSection(repo: string, path: string, lines: readonly string[], hits: readonly LineHit[], context = CONTEXT_LINES, enclosingAt: EnclosingAt = () => null): FileSection {
  const chunks = buildChunks(hits, lines.length, context);
  let text = `${fileHeader(repo, path)}\n`;
  let chunksCut = 0;
  let previousEnd: number | null = null;
  let previousPlace: string | null = null;
  for (const chunk of chunks.slice(0, MAX_CHUNKS_PER_FILE).sort((a, b) => a.start - b.start)) {
    const rendered = renderChunk(lines, chunk);
    if (previousEnd !== null && chunk.start > previousEnd + 1) text += CHUNK_SEPARATOR;
    const place = enclosingAt(chunk.start, chunk.end);
    if (place !== null && place !== previousPlace) text += `(${place})\n`;
    previousPlace = place;
    text += rendered.text;
    previousEnd = chunk.end;
    if (rendered.cut) chunksCut++;
  }
  return { text, chunksLeftOut: Math.max(0, chunks.length - MAX_CHUNKS_PER_FILE), chunksCut };
}
