/**
 * The stream API's query parameters (reference §3.4): q, v, t, display, max-line-len, cm, cl.
 * Parses and validates only; a bad value is a message for a 400 answer.
 */
import type { PatternType } from '../../query/ast.js';

export interface StreamParams {
  readonly query: string;
  /** From `t`, else from the version: V3 (default) keyword, V1 and V2 standard. */
  readonly patternType: PatternType;
  /** Matches sent at most; -1 for all. Searching and counting go on past it. */
  readonly display: number;
  /** Lines longer than this many code points are cut; -1 for no cut. */
  readonly maxLineLen: number;
  readonly chunkMatches: boolean;
  /** Lines of context around matched lines in chunk matches (Sourcegraph's default 1); none without `cm`. */
  readonly contextLines: number;
}

const PATTERN_TYPES: readonly PatternType[] = ['keyword', 'standard', 'literal', 'regexp'];
const VERSION_PATTERN_TYPES: Readonly<Record<string, PatternType>> = { V1: 'standard', V2: 'standard', V3: 'keyword' };

export function parseStreamParams(query: URLSearchParams): StreamParams | { readonly error: string } {
  const q = query.get('q');
  if (q === null || q.trim() === '') return { error: 'missing query parameter q' };
  const version = query.get('v') ?? 'V3';
  const versionType = VERSION_PATTERN_TYPES[version.toUpperCase()];
  if (versionType === undefined) return { error: `unknown search version v=${JSON.stringify(version)} (V1, V2 or V3)` };
  const t = query.get('t');
  if (t !== null && t !== '' && !PATTERN_TYPES.includes(t as PatternType)) return { error: `unknown pattern type t=${JSON.stringify(t)} (${PATTERN_TYPES.join(', ')})` };
  const display = intParam(query, 'display', -1);
  const maxLineLen = intParam(query, 'max-line-len', -1);
  const contextLines = intParam(query, 'cl', 1);
  const chunkMatches = boolParam(query.get('cm'));
  for (const [name, value] of [['display', display], ['max-line-len', maxLineLen], ['cl', contextLines], ['cm', chunkMatches]] as const) {
    if (typeof value === 'string') return { error: `${name}: ${value}` };
  }
  return {
    query: q,
    patternType: t !== null && t !== '' ? (t as PatternType) : versionType,
    display: display as number,
    maxLineLen: maxLineLen as number,
    chunkMatches: chunkMatches as boolean,
    contextLines: Math.max(0, contextLines as number),
  };
}

/** The number, or an error message. */
function intParam(query: URLSearchParams, name: string, fallback: number): number | string {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= -1 ? n : `expected an integer >= -1, got ${JSON.stringify(raw)}`;
}

/** Go's strconv.ParseBool spellings, which Sourcegraph's handler accepts. */
function boolParam(raw: string | null): boolean | string {
  if (raw === null || raw === '') return false;
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(raw)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(raw)) return false;
  return `expected a boolean, got ${JSON.stringify(raw)}`;
}
