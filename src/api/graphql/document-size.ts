/**
 * Bounds on a query's text checked before it is parsed: its length, its token count and how deeply
 * its brackets nest. graphql-js's parser recurses once per nesting level (about 3,300 levels
 * overflow the stack) and everything after parsing is linear in the tokens, so these bound the
 * work of every later step. Lexes with graphql-js's own lexer, iteratively; builds no tree.
 */
import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';

/**
 * Real clients send a few hundred tokens (`src search` 194, the full introspection query 183); a
 * document of a few KB, the largest the Sourcegraph web app sends, is about 1,000. Ten times that.
 */
export const MAX_QUERY_TOKENS = 10_000;
/** Comments and string literals are not tokens; this caps what they may add (large values belong in variables). */
export const MAX_QUERY_LENGTH = 256 * 1024;
/** Braces, brackets and parentheses: thirty selection levels with arguments need under a hundred. */
export const MAX_QUERY_NESTING = 256;

export type SizeCheck =
  | { readonly ok: true; readonly tokens: number }
  | { readonly ok: false; readonly refusal: string }
  | { readonly ok: false; readonly syntax: GraphQLError };

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

export function checkDocumentSize(query: string): SizeCheck {
  if (query.length > MAX_QUERY_LENGTH) {
    return { ok: false, refusal: `query exceeds maximum query cost: ${query.length} characters, at most ${MAX_QUERY_LENGTH}; pass large values as variables` };
  }
  const lexer = new Lexer(new Source(query));
  let tokens = 0;
  let nesting = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++tokens > MAX_QUERY_TOKENS) return { ok: false, refusal: `query exceeds maximum query cost: more than ${MAX_QUERY_TOKENS} tokens; split it into smaller queries` };
      if (OPENING.has(token.kind) && ++nesting > MAX_QUERY_NESTING) return { ok: false, refusal: `query exceeds maximum query cost: brackets nest more than ${MAX_QUERY_NESTING} levels deep` };
      if (CLOSING.has(token.kind)) nesting--;
    }
  } catch (err) {
    if (err instanceof GraphQLError) return { ok: false, syntax: err };
    throw err;
  }
  return { ok: true, tokens };
}
