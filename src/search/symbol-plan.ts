/**
 * The symbol part of a shard plan, on the main thread: `type:symbol` searches definition names,
 * `select:symbol(.<kind>)` makes a content search carry the definitions its matches hit.
 */
import type { BasicQuery, PatternExpr, SelectKind } from '../query/ast.js';
import type { PatternSpec } from '../matcher/matcher.js';
import type { ShardPlan } from '../shard/plan.js';
import type { SymbolTaskPlan } from '../shard/symbol-plan.js';

export function isSymbolSearch(basic: BasicQuery): boolean {
  return basic.filters.types.includes('symbol');
}

export function isSymbolSelect(select: SelectKind | null): select is SelectKind {
  return select === 'symbol' || (select?.startsWith('symbol.') ?? false);
}

/** `symbol.enum-member` → ENUMMEMBER (Sourcegraph's LSP kind name); null for plain `symbol`. */
export function selectedKind(select: SelectKind | null): string | null {
  return select?.startsWith('symbol.') ? select.slice('symbol.'.length).replace(/-/g, '').toUpperCase() : null;
}

/** The plan with its symbol task, when the query needs symbol tables; the plan itself otherwise. */
export function withSymbolPlan(plan: ShardPlan, basic: BasicQuery): ShardPlan {
  const { select } = basic.filters;
  const mode = isSymbolSearch(basic) ? 'search' : isSymbolSelect(select) ? 'attach' : null;
  if (mode === null) return plan;
  const symbols: SymbolTaskPlan = { mode, kind: selectedKind(select), requiredTexts: requiredLiterals(basic.pattern, plan.patterns) };
  return { ...plan, symbols };
}

/**
 * Positive literal atoms every match needs (the pattern itself, or the children of a top-level
 * AND). Atoms are numbered in the order planBasicQuery walks them: depth first, left to right.
 */
function requiredLiterals(pattern: PatternExpr | null, specs: readonly PatternSpec[]): PatternSpec[] {
  if (!pattern) return [];
  const top = pattern.kind === 'and' ? pattern.children : [pattern];
  const out: PatternSpec[] = [];
  let atom = 0;
  for (const expr of top) {
    if (expr.kind === 'atom' && !expr.negated && !expr.regexp) out.push(specs[atom]!);
    atom += countAtoms(expr);
  }
  return out;
}

function countAtoms(expr: PatternExpr): number {
  return expr.kind === 'atom' ? 1 : expr.children.reduce((n, child) => n + countAtoms(child), 0);
}
