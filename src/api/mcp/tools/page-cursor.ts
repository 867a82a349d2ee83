/**
 * Page cursors (list_repos, find_references): opaque base64url strings holding a position in an
 * ordered answer and the question it belongs to (a query, a definition), so a cursor from another
 * question is refused rather than misread.
 */
import { ToolError } from '../tool.js';

interface CursorBody {
  readonly q: string;
  /** A position in the ordered answer. */
  readonly i: number;
}

export function encodeCursor(query: string, index: number): string {
  return Buffer.from(JSON.stringify({ q: query, i: index } satisfies CursorBody), 'utf8').toString('base64url');
}

/** The position the cursor holds; a ToolError when it is not one of ours or belongs to another question. */
export function decodeCursor(cursor: string, query: string, argument: 'after' | 'before' | 'cursor', tool: string): number {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    body = null;
  }
  const { q, i } = (body ?? {}) as Partial<CursorBody>;
  if (typeof q !== 'string' || typeof i !== 'number' || !Number.isSafeInteger(i) || i < 0) {
    throw new ToolError(`Invalid ${argument} cursor: pass a cursor exactly as a previous ${tool} answer gave it.`);
  }
  if (q !== query) throw new ToolError(`The ${argument} cursor belongs to "${q}", not "${query}": repeat that call or start again without a cursor.`);
  return i;
}
