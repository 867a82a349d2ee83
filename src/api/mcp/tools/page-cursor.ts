/**
 * Page cursors (list_repos, find_references, list_refs, and the lists of list-page.ts): opaque
 * base64url strings holding a position in an ordered answer and the question it belongs to (a
 * query, a definition), so a cursor from another question is refused rather than misread.
 */
import { ToolError } from '../tool.js';

interface CursorBody {
  readonly q: string;
  /** A position in the ordered answer. */
  readonly i: number;
  /** Optional: a fingerprint of the items up to the position, so an answer that changed between pages is noticed. */
  readonly h?: string;
}

export interface CursorPosition {
  readonly index: number;
  readonly fingerprint: string | null;
}

export function encodeCursor(query: string, index: number, fingerprint?: string): string {
  const body: CursorBody = fingerprint === undefined ? { q: query, i: index } : { q: query, i: index, h: fingerprint };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/** The position the cursor holds; a ToolError when it is not one of ours or belongs to another question. */
export function decodeCursor(cursor: string, query: string, argument: 'after' | 'before' | 'cursor', tool: string): number {
  return readCursor(cursor, query, argument, tool).index;
}

/** The position and the fingerprint the cursor holds; refused as decodeCursor refuses. */
export function readCursor(cursor: string, query: string, argument: 'after' | 'before' | 'cursor', tool: string): CursorPosition {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    body = null;
  }
  const { q, i, h } = (body ?? {}) as Partial<CursorBody>;
  if (typeof q !== 'string' || typeof i !== 'number' || !Number.isSafeInteger(i) || i < 0 || (h !== undefined && typeof h !== 'string')) {
    throw new ToolError(`Invalid ${argument} cursor: pass a cursor exactly as a previous ${tool} answer gave it.`);
  }
  if (q !== query) throw new ToolError(`The ${argument} cursor belongs to "${q}", not "${query}": repeat that call or start again without a cursor.`);
  return { index: i, fingerprint: h ?? null };
}
