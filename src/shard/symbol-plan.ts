/**
 * What a shard task does with symbol tables, as plain clone-safe data: built on the main thread
 * (search/symbol-plan.ts) next to the ShardPlan, read in the worker.
 */
import type { PatternSpec } from '../matcher/matcher.js';

export interface SymbolTaskPlan {
  /**
   * 'search': `type:symbol`, definitions whose name matches the plan's expression.
   * 'attach': a content search for `select:symbol`, each match carries the definitions it hits.
   */
  readonly mode: 'search' | 'attach';
  /**
   * `select:symbol.<kind>`: only definitions of this kind, as an upper-case LSP name (SymbolKindName;
   * kinds Quarry never produces, such as STRUCT, select nothing); null for every kind.
   */
  readonly kind: string | null;
  /**
   * Literal terms every file with a matching definition name contains, as content patterns: files
   * without a stored table (unindexed revisions) that lack one are not parsed at all.
   */
  readonly requiredTexts: readonly PatternSpec[];
}
