/**
 * Boolean structure of a query: NOT binds tightest, then juxtaposition, then AND, then OR (reference
 * §2.6); parentheses group. Builds a tree of tokens and rejects dangling operators and unbalanced
 * parentheses; it does not interpret pattern words or filter values.
 */
import { isPatternToken, type FilterToken, type PatternToken, type Token } from './lex.js';
import { syntaxError } from './syntax-error.js';

export type SyntaxNode =
  | { readonly kind: 'term'; readonly token: PatternToken | FilterToken; readonly start: number }
  | { readonly kind: 'not'; readonly child: SyntaxNode; readonly start: number }
  /** `concat` is juxtaposition; it differs from an explicit `and` in standard/literal/regexp modes. */
  | { readonly kind: 'concat' | 'and' | 'or'; readonly children: readonly SyntaxNode[]; readonly start: number };

/** Deeper nesting is refused so that hostile input cannot exhaust the stack. */
const MAX_NESTING = 100;

/** null for a query with no tokens. */
export function parseSyntax(tokens: readonly Token[]): SyntaxNode | null {
  if (tokens.length === 0) return null;
  return new SyntaxParser(tokens).parseQuery();
}

function startsOperand(token: Token | undefined): token is Token {
  return token !== undefined && token.kind !== 'and' && token.kind !== 'or' && token.kind !== 'rparen';
}

function isTerm(token: Token): token is PatternToken | FilterToken {
  return isPatternToken(token) || token.kind === 'filter';
}

class SyntaxParser {
  private pos = 0;
  private nesting = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parseQuery(): SyntaxNode {
    const node = this.parseBinary('or');
    const leftover = this.peek();
    // Every other token kind would have been consumed by parseBinary, so this is a stray `)`.
    if (leftover) throw syntaxError('unbalanced parenthesis', leftover.start);
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private parseBinary(op: 'and' | 'or'): SyntaxNode {
    const operand = (): SyntaxNode => (op === 'or' ? this.parseBinary('and') : this.parseConcat());
    const first = operand();
    const children = [first];
    for (let token = this.peek(); token?.kind === op; token = this.peek()) {
      this.pos++;
      if (!startsOperand(this.peek())) throw syntaxError(`dangling operator ${op.toUpperCase()}`, token.start);
      children.push(operand());
    }
    return children.length === 1 ? first : { kind: op, children, start: first.start };
  }

  private parseConcat(): SyntaxNode {
    const first = this.peek();
    if (!startsOperand(first)) throw this.missingOperand(first);
    const children: SyntaxNode[] = [];
    while (startsOperand(this.peek())) children.push(this.parseUnary());
    return children.length === 1 ? children[0]! : { kind: 'concat', children, start: first.start };
  }

  private missingOperand(token: Token | undefined): Error {
    if (token === undefined) return syntaxError('unexpected end of query', this.tokens.at(-1)?.end ?? 0);
    if (token.kind === 'rparen') return syntaxError('unbalanced parenthesis', token.start);
    return syntaxError(`dangling operator ${token.kind.toUpperCase()}`, token.start);
  }

  private parseUnary(): SyntaxNode {
    const token = this.peek()!;
    this.pos++;
    if (token.kind === 'not') {
      if (!startsOperand(this.peek())) throw syntaxError('dangling operator NOT', token.start);
      return this.nested(token.start, () => ({ kind: 'not', child: this.parseUnary(), start: token.start }));
    }
    if (isTerm(token)) return { kind: 'term', token, start: token.start };
    if (token.kind !== 'lparen') throw this.missingOperand(token);
    const next = this.peek();
    if (next === undefined) throw syntaxError('unbalanced parenthesis', token.start);
    if (next.kind === 'rparen') throw syntaxError('empty parentheses', token.start);
    const inner = this.nested(token.start, () => this.parseBinary('or'));
    if (this.peek()?.kind !== 'rparen') throw syntaxError('unbalanced parenthesis', token.start);
    this.pos++;
    return inner;
  }

  private nested(start: number, parse: () => SyntaxNode): SyntaxNode {
    if (++this.nesting > MAX_NESTING) throw syntaxError('query nested too deeply', start);
    try {
      return parse();
    } finally {
      this.nesting--;
    }
  }
}
