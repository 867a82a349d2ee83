/**
 * Regex planning: RE2 syntax in, engine dialects (Hyperscan, JS) and the trigram query out.
 * Knows nothing of the index, the matchers' internals or the query language.
 */

export { planLiteral, planRegex, type PlanOptions, type RegexPlan } from './plan.js';
export { matchesPlain, plainRanges, type PlainText } from './plain-text.js';
export { prepareCaseFolding } from './case-fold.js';
