/**
 * Filter field names of the query language and their aliases (reference §2.7).
 * Lookup tables only: what a value means is decided in filter-values.ts.
 */

export type FilterField =
  | 'repo' | 'rev' | 'file' | 'lang' | 'content' | 'case' | 'type' | 'count' | 'timeout'
  | 'select' | 'fork' | 'archived' | 'patterntype' | 'visibility' | 'context'
  | 'author' | 'committer' | 'message' | 'before' | 'after';

const FIELD_BY_NAME: ReadonlyMap<string, FilterField> = new Map<string, FilterField>([
  ['repo', 'repo'], ['r', 'repo'],
  ['rev', 'rev'], ['revision', 'rev'],
  ['file', 'file'], ['f', 'file'],
  ['lang', 'lang'], ['language', 'lang'], ['l', 'lang'],
  ['content', 'content'],
  ['case', 'case'],
  ['type', 'type'],
  ['count', 'count'],
  ['timeout', 'timeout'],
  ['select', 'select'],
  ['fork', 'fork'],
  ['archived', 'archived'],
  ['patterntype', 'patterntype'],
  ['visibility', 'visibility'],
  ['context', 'context'],
  ['author', 'author'],
  ['committer', 'committer'],
  ['message', 'message'], ['msg', 'message'],
  ['before', 'before'], ['until', 'before'],
  ['after', 'after'], ['since', 'after'],
]);

/** Sourcegraph fields Quarry does not implement: reported as unsupported, not as unknown. */
const UNSUPPORTED_FIELDS: ReadonlySet<string> = new Set([
  'repohasfile', 'repohascommitafter', 'repohasdescription', 'index',
]);

export const NEGATABLE_FIELDS: ReadonlySet<FilterField> = new Set<FilterField>(['repo', 'file', 'lang', 'content', 'author', 'committer', 'message']);

/** `name` is case-insensitive; null when it is not a supported field. */
export function canonicalField(name: string): FilterField | null {
  return FIELD_BY_NAME.get(name.toLowerCase()) ?? null;
}

export function isUnsupportedField(name: string): boolean {
  return UNSUPPORTED_FIELDS.has(name.toLowerCase());
}

/** Supported or not, a name Sourcegraph knows as a filter. */
export function isKnownFieldName(name: string): boolean {
  return canonicalField(name) !== null || isUnsupportedField(name);
}
