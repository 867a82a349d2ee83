/**
 * list_repos page cursors: opaque base64url strings holding a position in the ranked match list and
 * the query they belong to, so a cursor from another query is refused rather than misread.
 */
import { ToolError } from '../tool.js';

interface CursorBody {
  readonly q: string;
  /** Index of a repository in the ranked matches. */
  readonly i: number;
}

export function encodeCursor(query: string, index: number): string {
  return Buffer.from(JSON.stringify({ q: query, i: index } satisfies CursorBody), 'utf8').toString('base64url');
}

/** The position the cursor holds; a ToolError when it is not one of ours or belongs to another query. */
export function decodeCursor(cursor: string, query: string, argument: 'after' | 'before'): number {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    body = null;
  }
  const { q, i } = (body ?? {}) as Partial<CursorBody>;
  if (typeof q !== 'string' || typeof i !== 'number' || !Number.isSafeInteger(i) || i < 0) {
    throw new ToolError(`Invalid ${argument} cursor: pass a cursor exactly as a previous list_repos answer gave it.`);
  }
  if (q !== query) throw new ToolError(`The ${argument} cursor belongs to the query "${q}", not "${query}": repeat that query or start again without a cursor.`);
  return i;
}
