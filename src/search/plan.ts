/**
 * Planning: one basic query → the ShardPlan every shard task of it runs. Patterns become engine
 * dialects and trigram queries here (src/regex), once per query, never per shard.
 */
import type { BasicQuery, PatternExpr } from '../query/ast.js';
import { planLiteral, planRegex, type RegexPlan } from '../regex/index.js';
import type { PatternSpec } from '../matcher/matcher.js';
import type { AtomPlan, ExprPlan, ShardPlan } from '../shard/plan.js';
import { createError, isQuarryError } from '../errors.js';

export interface PlanOptions {
  readonly matcher: ShardPlan['matcher'];
}

export function planBasicQuery(basic: BasicQuery, options: PlanOptions): ShardPlan {
  const { filters } = basic;
  const caseSensitive = filters.caseSensitive;
  const searchPaths = filters.types.length === 0 || filters.types.includes('path');
  const searchContent = filters.types.length === 0 || filters.types.includes('file');
  const patterns: PatternSpec[] = [];
  const asciiPatterns: PatternSpec[] = [];
  const atoms: AtomPlan[] = [];
  const exactTexts: string[] = [];
  const walk = (expr: PatternExpr): ExprPlan => {
    if (expr.kind !== 'atom') return { op: expr.kind, args: expr.children.map(walk) };
    const regex: RegexPlan = expr.regexp ? planRegex(expr.value, { caseSensitive }) : planLiteral(expr.value, { caseSensitive });
    patterns.push(regex.spec);
    asciiPatterns.push(regex.asciiHyperscan === null ? regex.spec : { ...regex.spec, hyperscan: regex.asciiHyperscan });
    atoms.push({
      negated: expr.negated,
      matchContent: searchContent,
      matchPath: searchPaths && expr.field === 'default' && !expr.negated,
      trigrams: regex.trigrams,
    });
    if (!expr.regexp) exactTexts.push(expr.value);
    return { op: 'atom', atom: atoms.length - 1 };
  };
  const expr = basic.pattern ? walk(basic.pattern) : null;
  const pathSpec = (pattern: string): PatternSpec => {
    try {
      return planRegex(pattern, { caseSensitive }).spec;
    } catch (err) {
      throw globHint(err, pattern);
    }
  };
  return {
    patterns,
    asciiPatterns: asciiPatterns.some((spec, i) => spec !== patterns[i]) ? asciiPatterns : null,
    atoms,
    expr,
    fileInclude: filters.files.filter((f) => !f.negated).map((f) => pathSpec(f.pattern)),
    fileExclude: filters.files.filter((f) => f.negated).map((f) => pathSpec(f.pattern)),
    langInclude: filters.langs.filter((l) => !l.negated).map((l) => l.name),
    langExclude: filters.langs.filter((l) => l.negated).map((l) => l.name),
    exactTexts,
    matcher: options.matcher,
  };
}

/**
 * file: takes a regular expression, but agents and people write globs (`*.py`, `src/**\/*.ts`):
 * such an invalid pattern is answered with the regular expression the glob means.
 */
function globHint(err: unknown, pattern: string): unknown {
  if (!isQuarryError(err, 'PATTERN_INVALID') || !/^\*|\*\*|\/\*/.test(pattern)) return err;
  const regex = globToRegex(pattern);
  return createError('PATTERN_INVALID', `file:${pattern} is a glob, but file: takes a regular expression: for this glob use file:${regex}`, { ...err.details, suggestion: `file:${regex}` });
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      out += glob[i + 2] === '/' ? '(.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += /[.+^${}()|[\]\\]/.test(c) ? `\\${c}` : c;
  }
  const anchored = out.startsWith('[^/]*') ? out.slice(5) : out.startsWith('(.*/)?') ? `(^|/)${out.slice(6)}` : `^${out}`;
  return `${anchored}$`;
}
