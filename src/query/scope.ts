/**
 * Filter scoping (reference §2.6): expands the syntax tree into a union of alternatives, each a set
 * of filter clauses over one pattern expression. Filters apply to the whole conjunction they appear
 * in, nested groups included; an OR whose branches carry filters splits into alternatives and the
 * filters around it are distributed over each; an OR of patterns only stays one pattern.
 */
import type { PatternExpr, PatternType } from './ast.js';
import { interpretFilter, type FilterClause } from './filter-values.js';
import type { FilterToken, PatternToken } from './lex.js';
import { andOf, atomsOfRun, negatePattern, orOf, type PatternRun } from './patterns.js';
import type { SyntaxNode } from './syntax.js';
import { syntaxError } from './syntax-error.js';

export interface Alternative {
  readonly clauses: readonly FilterClause[];
  readonly pattern: PatternExpr | null;
}

export interface ScopeContext {
  /** The whole query text: literal mode takes patterns verbatim from it. */
  readonly source: string;
  readonly patternType: PatternType;
}

/** Distributing filters over ORs multiplies alternatives; past this the query is refused. */
const MAX_ALTERNATIVES = 64;

/** No filter and no pattern: what a lone `context:global` stands for. */
const UNRESTRICTED: Alternative = { clauses: [], pattern: null };

export function expand(node: SyntaxNode, ctx: ScopeContext): Alternative[] {
  switch (node.kind) {
    case 'term':
      return [node.token.kind === 'filter' ? filterAlternative(node.token, false, ctx) : runAlternative([[node.token]], ctx)];
    case 'not':
      return negation(node.child, node.start, ctx);
    case 'concat':
      return conjunction(concatParts(node.children, ctx), node.start);
    case 'and':
      return conjunction(node.children.map((child) => expand(child, ctx)), node.start);
    case 'or':
      return disjunction(node.children.map((child) => expand(child, ctx)), node.start);
  }
}

function filterAlternative(token: FilterToken, outerNot: boolean, ctx: ScopeContext): Alternative {
  const meaning = interpretFilter(token, token.negated !== outerNot, ctx.patternType);
  if (meaning.kind === 'clause') return { clauses: [meaning.clause], pattern: null };
  if (meaning.kind === 'pattern') return { clauses: [], pattern: meaning.atom };
  return UNRESTRICTED;
}

function runAlternative(run: PatternRun, ctx: ScopeContext): Alternative {
  return { clauses: [], pattern: andOf(atomsOfRun(run, ctx.patternType, ctx.source)) };
}

/** `NOT file:x` is `-file:x`; NOT of a pattern group pushes down to its atoms. */
function negation(child: SyntaxNode, position: number, ctx: ScopeContext): Alternative[] {
  if (child.kind === 'not') return expand(child.child, ctx);
  if (child.kind === 'term' && child.token.kind === 'filter') return [filterAlternative(child.token, true, ctx)];
  const inner = expand(child, ctx);
  const only = inner.length === 1 ? inner[0]! : UNRESTRICTED;
  if (only.clauses.length > 0 || only.pattern === null) {
    throw syntaxError('NOT applies to patterns or to a single filter, not to a group containing filters', position);
  }
  return [{ clauses: [], pattern: negatePattern(only.pattern) }];
}

/**
 * Juxtaposed pattern words form runs that the pattern type reads together (standard: one string).
 * A filter between two words is lifted out without breaking the run; a group, a NOT or a content:
 * filter ends it, so pattern order is kept.
 */
function concatParts(children: readonly SyntaxNode[], ctx: ScopeContext): Alternative[][] {
  const parts: Alternative[][] = [];
  let run: PatternToken[][] = [];
  let segment: PatternToken[] = [];
  const endSegment = (): void => {
    if (segment.length > 0) run.push(segment);
    segment = [];
  };
  const endRun = (): void => {
    endSegment();
    if (run.length > 0) parts.push([runAlternative(run, ctx)]);
    run = [];
  };
  for (const child of children) {
    if (child.kind === 'term' && child.token.kind !== 'filter') {
      segment.push(child.token);
      continue;
    }
    const alternative = child.kind === 'term' && child.token.kind === 'filter' ? filterAlternative(child.token, false, ctx) : null;
    if (alternative === null || alternative.pattern !== null) endRun();
    else endSegment();
    parts.push(alternative === null ? expand(child, ctx) : [alternative]);
  }
  endRun();
  return parts;
}

/** Every combination of one alternative per part; the last part varies fastest. */
function conjunction(parts: readonly Alternative[][], position: number): Alternative[] {
  let count = 1;
  for (const part of parts) {
    count *= part.length;
    if (count > MAX_ALTERNATIVES) throw tooManyAlternatives(position);
  }
  const result: Alternative[] = [];
  for (let index = 0; index < count; index++) {
    const chosen: Alternative[] = [];
    let rest = index;
    for (let p = parts.length - 1; p >= 0; p--) {
      const part = parts[p]!;
      chosen.push(part[rest % part.length]!);
      rest = Math.floor(rest / part.length);
    }
    chosen.reverse();
    result.push({
      clauses: chosen.flatMap((alternative) => alternative.clauses),
      pattern: andOf(chosen.flatMap((alternative) => alternative.pattern ?? [])),
    });
  }
  return result;
}

function disjunction(branches: readonly Alternative[][], position: number): Alternative[] {
  const alternatives = branches.flat();
  const patterns = alternatives.map((alternative) => (alternative.clauses.length === 0 ? alternative.pattern : null));
  if (alternatives.length === branches.length && patterns.every((pattern) => pattern !== null)) {
    return [{ clauses: [], pattern: orOf(patterns) }];
  }
  if (alternatives.length > MAX_ALTERNATIVES) throw tooManyAlternatives(position);
  return alternatives;
}

function tooManyAlternatives(position: number): Error {
  return syntaxError(`query expands to more than ${MAX_ALTERNATIVES} alternatives`, position);
}
