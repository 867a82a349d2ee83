/**
 * Pattern words to pattern atoms according to the pattern type (reference §2.2-2.4), plus the small
 * algebra on pattern expressions (flattening AND/OR, pushing NOT down to the atoms).
 */
import type { PatternAtom, PatternExpr, PatternType } from './ast.js';
import type { PatternToken } from './lex.js';
import { syntaxError } from './syntax-error.js';

/**
 * Juxtaposed pattern tokens. A run is split into segments where a filter stood between two tokens
 * (`foo repo:x bar`): the filter is lifted out and the segments are joined by one space.
 */
export type PatternRun = readonly (readonly PatternToken[])[];

export function atom(value: string, regexp: boolean, field: PatternAtom['field'] = 'default'): PatternAtom {
  return { kind: 'atom', value, regexp, negated: false, field };
}

/** The atoms a run stands for, to be ANDed. `source` is the whole query text (literal mode keeps it verbatim). */
export function atomsOfRun(run: PatternRun, patternType: PatternType, source: string): PatternAtom[] {
  const tokens = run.flat();
  switch (patternType) {
    case 'keyword':
      return tokens.map((token) => (token.kind === 'word' ? atom(token.text, false) : exactAtom(token)));
    case 'literal': {
      const text = run.map((segment) => source.slice(segment[0]!.start, segment.at(-1)!.end)).join(' ');
      return [atom(text, false)];
    }
    case 'standard':
      // Quotes are matched literally, so words and quoted strings join into one literal string.
      return joinWords(tokens, { separator: ' ', regexp: false, quotedJoins: true });
    case 'regexp':
      // "Spaces between non-whitespace strings becomes .*?" (§2.4); quoted strings stay exact.
      return joinWords(tokens, { separator: '(.*?)', regexp: true, quotedJoins: false });
  }
}

interface JoinRule {
  readonly separator: string;
  readonly regexp: boolean;
  readonly quotedJoins: boolean;
}

/** Consecutive words (and quoted strings, when `quotedJoins`) become one atom; the rest stand alone. */
function joinWords(tokens: readonly PatternToken[], rule: JoinRule): PatternAtom[] {
  const atoms: PatternAtom[] = [];
  let texts: string[] = [];
  const flush = (): void => {
    if (texts.length > 0) atoms.push(atom(texts.join(rule.separator), rule.regexp));
    texts = [];
  };
  for (const token of tokens) {
    if (token.kind === 'word' || (token.kind === 'quoted' && rule.quotedJoins)) {
      texts.push(token.text);
    } else {
      flush();
      atoms.push(exactAtom(token));
    }
  }
  flush();
  return atoms;
}

/** Quoted strings are exact literals and `/re/` is a regexp in keyword and regexp modes. */
function exactAtom(token: PatternToken): PatternAtom {
  if (token.kind === 'regexp') return atom(token.value, true);
  if (token.kind === 'quoted' && token.value === '') throw syntaxError('empty quoted pattern', token.start);
  return atom(token.kind === 'quoted' ? token.value : token.text, false);
}

export function andOf(children: readonly PatternExpr[]): PatternExpr | null {
  return combine('and', children);
}

export function orOf(children: readonly PatternExpr[]): PatternExpr | null {
  return combine('or', children);
}

function combine(kind: 'and' | 'or', children: readonly PatternExpr[]): PatternExpr | null {
  const flat = children.flatMap((child) => (child.kind === kind ? child.children : [child]));
  if (flat.length <= 1) return flat[0] ?? null;
  return { kind, children: flat };
}

/** De Morgan down to the atoms: the AST has no NOT node, only negated atoms. */
export function negatePattern(expr: PatternExpr): PatternExpr {
  if (expr.kind === 'atom') return { ...expr, negated: !expr.negated };
  const negated = expr.children.map(negatePattern);
  return (expr.kind === 'and' ? orOf(negated) : andOf(negated))!;
}
