/**
 * Patterns only the backtracking JS engine can run (backreferences, look-around) are refused when
 * their running time can be exponential, and those accepted run fast on inputs built to make a
 * backtracker try every split. Patterns Hyperscan takes are never refused for this: it is linear.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { planRegex } from '../../src/regex/plan.js';

const EXPONENTIAL = [
  '(x+x+)+\\1y', '(x+)+\\1', '(x*)*\\1', '(a{1,2})*\\1', '(\\w+\\s?)+\\1', '(.*,)*\\1', '(?:[a-z]+\\d*)+(?=!)',
  '(a|ab)*\\1', '(?i)(A|a)+\\1', '(?:\\w|\\d)+(?=!)', '(?=(x+x+)+y)', '(a)(?:b|(?:x+)+)*\\1',
];

const ACCEPTED = [
  '(\\w+)\\s+\\1', '([\'"]).*?\\1', '<(\\w+)>.*</\\1>', '(?:ab?)+(?=c)', '(?:a?b)+(?=c)', '((\\w+),\\s*)+\\2',
  '(?:\\b\\w+\\b\\s)+(?=x)', '(a+b+)+\\1', '(\\d+\\.)+\\1', '(a|b)*\\1', '(?i)(a|b)+\\1', 'foo(?=bar)', '(x)[^x]*\\1',
];

function refusal(pattern: string): string | null {
  try {
    planRegex(pattern, { caseSensitive: true });
    return null;
  } catch (err) {
    assert.ok(isQuarryError(err, 'PATTERN_UNSUPPORTED'), `${pattern}: ${String(err)}`);
    assert.equal(err.details['reason'], 'backtracking');
    return err.message;
  }
}

test('patterns with exponential backtracking are refused, saying what to change', () => {
  for (const pattern of EXPONENTIAL) {
    const message = refusal(pattern);
    assert.ok(message !== null, `${pattern} was planned`);
    assert.match(message, /^pattern too costly: it has (a repetition that can also match what follows it|alternatives that can begin with the same character), inside .*; remove the nesting, or the backreference or look-around$/);
  }
});

test('the same shapes without a backreference or look-around go to Hyperscan, and are not refused', () => {
  for (const pattern of ['(x+x+)+y', '(x+)+', '(a|ab)*c', '(\\w+\\s?)+$']) {
    const plan = planRegex(pattern, { caseSensitive: true });
    assert.notEqual(plan.spec.hyperscan, null, pattern);
  }
});

test('accepted patterns run in the backtracking engine fast on inputs built to make it try every split', () => {
  for (const pattern of ACCEPTED) {
    assert.equal(refusal(pattern), null, pattern);
    const plan = planRegex(pattern, { caseSensitive: true });
    assert.equal(plan.spec.hyperscan, null, `${pattern} would not run on the backtracking engine`);
    const re = new RegExp(plan.spec.js, 'u');
    // Every pair of the characters the pattern names (and some it does not), repeated, then one that ends any match.
    const chars = [...new Set([...pattern.replace(/\\[wdsb]/g, ''), 'a', 'x', ' ', '1', ','])].filter((c) => !'()[]*+?|\\^$.{}=:<!'.includes(c));
    const started = performance.now();
    for (const a of chars) for (const b of chars) re.test(`${(a + b).repeat(400)}\u0000`);
    const ms = performance.now() - started;
    assert.ok(ms < 2000, `${pattern}: ${ms.toFixed(0)} ms over ${chars.length ** 2} inputs`);
  }
});
