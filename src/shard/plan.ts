/**
 * What one shard task must compute, as plain clone-safe data: built on the main thread by
 * search/plan.ts from a parsed query, executed in a worker by search-shard.ts.
 */
import type { PatternSpec } from '../matcher/matcher.js';
import type { TrigramQuery } from '../model/trigram.js';
import type { SymbolTaskPlan } from './symbol-plan.js';

/** Atom i is matched by ShardPlan.patterns[i]. */
export interface AtomPlan {
  readonly negated: boolean;
  readonly matchContent: boolean;
  /** Keyword terms also match file paths. */
  readonly matchPath: boolean;
  /** Every document whose content matches satisfies this. */
  readonly trigrams: TrigramQuery;
}

export type ExprPlan =
  | { readonly op: 'atom'; readonly atom: number }
  | { readonly op: 'and'; readonly args: readonly ExprPlan[] }
  | { readonly op: 'or'; readonly args: readonly ExprPlan[] };

export interface ShardPlan {
  readonly patterns: readonly PatternSpec[];
  /** The same patterns with Hyperscan forms exact on pure-ASCII documents only, or null if none differ. */
  readonly asciiPatterns: readonly PatternSpec[] | null;
  readonly atoms: readonly AtomPlan[];
  /** null: no pattern, every document that passes the filters matches (by path). */
  readonly expr: ExprPlan | null;
  /** file: filters, each must match the path; -file: filters, none may. */
  readonly fileInclude: readonly PatternSpec[];
  readonly fileExclude: readonly PatternSpec[];
  readonly langInclude: readonly string[];
  readonly langExclude: readonly string[];
  /** The atoms' text as the user typed it, for the exact-case ranking signal. */
  readonly exactTexts: readonly string[];
  readonly matcher: 'auto' | 'hyperscan' | 'js';
  /** `type:symbol` or `select:symbol`: what to do with symbol tables; absent for plain content searches. */
  readonly symbols?: SymbolTaskPlan;
}
