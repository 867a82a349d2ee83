/**
 * The list endpoint's query parameters (reference §5.4: `filter_id`, `filter_user_id`,
 * `filter_read_token`, `filter_is_starred`, `page_first`, `page_after`, `sort`) read into a
 * filter, or the problem with one of them. Pages use the MCP tools' cursor (page-cursor.ts),
 * bound to the filters and sort, so a cursor is never read against another question.
 */
import type { ConversationSort } from '../../model/deepsearch.js';
import { decodeCursor, encodeCursor } from '../mcp/tools/page-cursor.js';
import { ToolError } from '../mcp/tool.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const SORTS: readonly ConversationSort[] = ['id', '-id', 'created_at', '-created_at', 'updated_at', '-updated_at'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ListParams {
  readonly id?: number;
  readonly userId?: number;
  readonly readToken?: string;
  /** Quarry has no starred conversations: `true` matches none, `false` all. */
  readonly starred?: boolean;
  readonly sort: ConversationSort;
  readonly first: number;
  readonly offset: number;
  /** What the page's cursors are bound to. */
  readonly cursorKey: string;
}

export function positiveInteger(text: string): number | null {
  return /^[1-9][0-9]{0,15}$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : null;
}

export function cursorAfter(params: ListParams, nextOffset: number): string {
  return encodeCursor(params.cursorKey, nextOffset);
}

export function readListParams(query: URLSearchParams): ListParams | { readonly problem: string } {
  const integer = (name: string): number | undefined | { problem: string } => {
    const text = query.get(name);
    if (text === null) return undefined;
    return positiveInteger(text) ?? { problem: `${name} must be a positive integer, not ${JSON.stringify(text.slice(0, 40))}` };
  };
  const id = integer('filter_id');
  if (typeof id === 'object') return id;
  const userId = integer('filter_user_id');
  if (typeof userId === 'object') return userId;
  const first = integer('page_first');
  if (typeof first === 'object') return first;
  if (first !== undefined && first > MAX_PAGE_SIZE) return { problem: `page_first must be at most ${MAX_PAGE_SIZE}, not ${first}` };
  const readToken = query.get('filter_read_token') ?? undefined;
  if (readToken !== undefined && !UUID.test(readToken)) return { problem: 'filter_read_token must be a conversation\'s read token (a UUID such as caebeb05-7755-4f89-834f-e3ee4a6acb25)' };
  const starredText = query.get('filter_is_starred');
  if (starredText !== null && starredText !== 'true' && starredText !== 'false') return { problem: `filter_is_starred must be true or false, not ${JSON.stringify(starredText.slice(0, 40))}` };
  const sortText = query.get('sort') ?? '-updated_at';
  const sort = SORTS.find((s) => s === sortText);
  if (sort === undefined) return { problem: `sort must be one of ${SORTS.join(', ')}, not ${JSON.stringify(sortText.slice(0, 40))}` };
  const base = {
    ...(id === undefined ? {} : { id }), ...(userId === undefined ? {} : { userId }),
    ...(readToken === undefined ? {} : { readToken: readToken.toLowerCase() }), ...(starredText === null ? {} : { starred: starredText === 'true' }),
    sort, first: first ?? DEFAULT_PAGE_SIZE,
  };
  const cursorKey = `deepsearch ${sort} id=${id ?? ''} user=${userId ?? ''} token=${base.readToken ?? ''} starred=${starredText ?? ''}`;
  const after = query.get('page_after');
  if (after === null) return { ...base, offset: 0, cursorKey };
  try {
    return { ...base, offset: decodeCursor(after, cursorKey, 'after', 'deep search list'), cursorKey };
  } catch (err) {
    if (err instanceof ToolError) return { problem: `page_after: ${err.message}` };
    throw err;
  }
}
