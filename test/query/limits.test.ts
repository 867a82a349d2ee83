/** One query's size is bounded before anything is planned, with errors that say what to change. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { parseQuery } from '../../src/query/index.js';
import { MAX_QUERY_CHARS, MAX_QUERY_PATTERNS, MAX_REGEX_CHARS } from '../../src/query/limits.js';

function refusal(query: string): string {
  try {
    parseQuery(query);
  } catch (err) {
    assert.ok(isQuarryError(err, 'QUERY_UNSUPPORTED'), String(err));
    return err.message;
  }
  assert.fail(`accepted a query of ${query.length} characters`);
}

test('a query longer than the limit is refused before it is read', () => {
  const started = performance.now();
  assert.match(refusal('x '.repeat(MAX_QUERY_CHARS)), /too long: \d+ characters, at most 16384/);
  assert.ok(performance.now() - started < 100);
});

test('thousands of terms are refused, counting each atom and each distinct filter value', () => {
  assert.match(refusal(`${'x AND '.repeat(2000)}x`), /too many patterns and filter values/);
  assert.match(refusal(Array.from({ length: MAX_QUERY_PATTERNS + 1 }, (_, i) => `t${i}`).join(' OR ')), new RegExp(`${MAX_QUERY_PATTERNS + 1}, at most ${MAX_QUERY_PATTERNS}`));
  assert.match(refusal(Array.from({ length: MAX_QUERY_PATTERNS + 1 }, (_, i) => `file:f${i}`).join(' ')), /too many patterns/);
  const repeated = Array.from({ length: 6 }, (_, i) => `(repo:a${i} or repo:b${i})`).join(' ');
  assert.equal(parseQuery(repeated).basics.length, 64, 'filters distributed over alternatives count once');
  assert.equal(parseQuery(Array.from({ length: MAX_QUERY_PATTERNS }, (_, i) => `t${i}`).join(' OR ')).basics.length, 1);
});

test('too many patterns are refused from the tokens, before the query is built; a run of words is one pattern outside keyword mode', () => {
  const terms = (n: number, joiner: string): string => Array.from({ length: n }, (_, i) => `t${i}`).join(joiner);
  assert.match(refusal(terms(1500, ' OR ')), /too many patterns and filter values: at least 1500, at most 128/);
  assert.match(refusal(`patterntype:regexp ${terms(MAX_QUERY_PATTERNS + 1, ' or ')}`), /at least 129, at most 128/);
  assert.match(refusal(terms(MAX_QUERY_PATTERNS + 1, ' ')), /at least 129, at most 128/, 'keyword mode: every word is a pattern');
  for (const patternType of ['standard', 'literal', 'regexp']) {
    const basics = parseQuery(`patterntype:${patternType} ${terms(150, ' ')} repo:x ${terms(50, ' ')}`).basics;
    assert.equal(basics.length, 1, `${patternType}: one run of 200 words, a filter between them`);
  }
  assert.equal(parseQuery(`patterntype:standard ${terms(200, ' ')} or (${terms(200, ' ')})`).basics.length, 1);
});

test('regular expressions beyond the character budget are refused', () => {
  const long = `/${'[a-z]'.repeat(Math.ceil(MAX_REGEX_CHARS / 5) + 1)}/`;
  assert.match(refusal(`patterntype:regexp ${long.slice(1, -1)}`), /too much regular expression/);
  assert.match(refusal(`repo:${'a.'.repeat(MAX_REGEX_CHARS / 2 + 1)} x`), /too much regular expression/);
  assert.equal(parseQuery(`/${'a.'.repeat(100)}/`).basics.length, 1);
});
