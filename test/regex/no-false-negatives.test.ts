/**
 * The trigram query's contract, checked against the JS engine on seeded random patterns and texts:
 * whenever the translated pattern finds a match in a text, the text's trigrams satisfy the query.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { planRegex, type RegexPlan } from '../../src/regex/index.js';
import { trigramQueryToString } from '../../src/model/trigram.js';
import { evaluateQuery, jsRegExp, seededRandom, trigramsOfText } from './helpers.js';
import { randomRegex, randomText } from './random-regex.js';

const PATTERNS = 3000;
const TEXTS_PER_PATTERN = 12;

/** The plan, or null for the one refusal random patterns can hit: (?i) backreferences in mixed-case patterns. */
function planOrNull(source: string, caseSensitive: boolean): RegexPlan | null {
  try {
    return planRegex(source, { caseSensitive });
  } catch (err) {
    if (isQuarryError(err, 'PATTERN_UNSUPPORTED') && /backreference/.test(String(err))) return null;
    throw err;
  }
}

test('random patterns: every text with a match satisfies the trigram query', () => {
  const random = seededRandom(20240611);
  let matched = 0;
  let narrowed = 0;
  for (let i = 0; i < PATTERNS; i++) {
    const regex = randomRegex(random);
    const caseSensitive = random() < 0.5;
    const plan = planOrNull(regex.source, caseSensitive);
    if (plan === null) continue;
    const re = jsRegExp(plan.spec);
    if (plan.trigrams.op !== 'all') narrowed++;
    for (let j = 0; j < TEXTS_PER_PATTERN; j++) {
      const text = j === 0 ? randomText(random, 30) : randomText(random, 4) + regex.sample() + randomText(random, 4);
      if (!re.test(text)) continue;
      matched++;
      const ok = evaluateQuery(plan.trigrams, trigramsOfText(text));
      assert.ok(ok, `/${regex.source}/ (caseSensitive=${caseSensitive}) matches ${JSON.stringify(text)} but query ${trigramQueryToString(plan.trigrams)} rejects it`);
    }
  }
  // The property only means something if many texts matched and many queries were not trivial.
  assert.ok(matched > PATTERNS * 3, `only ${matched} matching texts`);
  assert.ok(narrowed > PATTERNS / 4, `only ${narrowed} non-trivial queries`);
});

test('random patterns: matchesEmpty is true whenever the pattern matches the empty text', () => {
  const random = seededRandom(7);
  for (let i = 0; i < PATTERNS; i++) {
    const regex = randomRegex(random);
    const plan = planOrNull(regex.source, true);
    if (plan !== null && jsRegExp(plan.spec).test('')) assert.equal(plan.matchesEmpty, true, regex.source);
  }
});

test('literal text queries: every text containing the literal (in any case) satisfies the query', () => {
  const random = seededRandom(99);
  for (let i = 0; i < PATTERNS; i++) {
    const literal = randomText(random, 8);
    const caseSensitive = random() < 0.5;
    const plan = planRegex(literal.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&'), { caseSensitive });
    const text = randomText(random, 4) + (caseSensitive ? literal : literal.toUpperCase()) + randomText(random, 4);
    if (!jsRegExp(plan.spec).test(text)) continue;
    assert.ok(evaluateQuery(plan.trigrams, trigramsOfText(text)), `${JSON.stringify(literal)} in ${JSON.stringify(text)}`);
  }
});
