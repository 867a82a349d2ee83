/**
 * The search query split into tokens for highlighting only: filters (`key:value`, `-key:value`),
 * the operators AND, OR and NOT, parentheses, `/regexp/`, quoted strings and pattern words. It
 * never rejects a query: the server's parser is the judge, this only colours what was typed.
 */
export type TokenKind = 'space' | 'filter-key' | 'filter-value' | 'negation' | 'operator' | 'paren' | 'regexp' | 'quoted' | 'pattern';

export interface QueryToken {
  readonly kind: TokenKind;
  readonly text: string;
  /** UTF-16 offset in the query. */
  readonly start: number;
}

const FILTER_KEY = /^[A-Za-z][A-Za-z.]*:/;
const OPERATOR = /^(and|or|not)$/i;

export function queryTokens(query: string): QueryToken[] {
  const tokens: QueryToken[] = [];
  let at = 0;
  const push = (kind: TokenKind, end: number): void => {
    if (end > at) tokens.push({ kind, text: query.slice(at, end), start: at });
    at = end;
  };
  while (at < query.length) {
    const rest = query.slice(at);
    const space = /^\s+/.exec(rest);
    if (space !== null) {
      push('space', at + space[0].length);
      continue;
    }
    if (rest[0] === '(' || rest[0] === ')') {
      push('paren', at + 1);
      continue;
    }
    if (rest[0] === '-' && FILTER_KEY.test(rest.slice(1))) push('negation', at + 1);
    const key = FILTER_KEY.exec(query.slice(at));
    if (key !== null) {
      push('filter-key', at + key[0].length);
      push('filter-value', valueEnd(query, at));
      continue;
    }
    if (rest[0] === '"' || rest[0] === "'") {
      push('quoted', quotedEnd(query, at));
      continue;
    }
    if (rest[0] === '/') {
      const end = regexpEnd(query, at);
      if (end > at) {
        push('regexp', end);
        continue;
      }
    }
    const end = wordEnd(query, at);
    push(OPERATOR.test(query.slice(at, end)) ? 'operator' : 'pattern', end);
  }
  return tokens;
}

/** A filter's value: a quoted string, or up to a space or a closing parenthesis that closes nothing in it. */
function valueEnd(query: string, start: number): number {
  if (query[start] === '"' || query[start] === "'") return quotedEnd(query, start);
  return wordEnd(query, start);
}

function quotedEnd(query: string, start: number): number {
  const quote = query[start];
  for (let i = start + 1; i < query.length; i++) {
    if (query[i] === '\\') i++;
    else if (query[i] === quote) return i + 1;
  }
  return query.length;
}

/** `/…/` ending at an unescaped `/` followed by a space, `)` or the end; `at` when there is none. */
function regexpEnd(query: string, start: number): number {
  for (let i = start + 1; i < query.length; i++) {
    if (query[i] === '\\') i++;
    else if (query[i] === '/' && (i + 1 === query.length || /[\s)]/.test(query[i + 1]!))) return i + 1;
  }
  return start;
}

/** Up to a space; a trailing `)` beyond the word's own opened parentheses is left for the next token. */
function wordEnd(query: string, start: number): number {
  let depth = 0;
  let i = start;
  for (; i < query.length && !/\s/.test(query[i]!); i++) {
    if (query[i] === '\\') i++;
    else if (query[i] === '(') depth++;
    else if (query[i] === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  return Math.min(i, query.length);
}
