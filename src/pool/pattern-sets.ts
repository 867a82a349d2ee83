/**
 * The pattern sets a task makes its worker compile, so the compile guard can vet exactly those
 * before the task is submitted: a shard plan's content, ASCII and path-filter sets (its symbol
 * names reuse the content patterns), and each pattern alone where a diff or text scan compiles
 * them one by one.
 */
import type { PatternSpec } from '../matcher/matcher.js';
import type { EnginePreference } from '../matcher/select.js';
import type { ShardPlan } from '../shard/plan.js';

export interface PatternSet {
  readonly patterns: readonly PatternSpec[];
  readonly preference: EnginePreference;
}

export function shardPlanSets(plan: ShardPlan): PatternSet[] {
  const sets = [plan.patterns, plan.asciiPatterns ?? [], plan.fileInclude, plan.fileExclude];
  return sets.filter((patterns) => patterns.length > 0).map((patterns) => ({ patterns, preference: plan.matcher }));
}

export function eachAlone(specs: readonly PatternSpec[]): PatternSet[] {
  return specs.map((spec) => ({ patterns: [spec], preference: 'auto' }));
}
