import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QuarryError } from '../../src/errors.js';
import { parseQuery, queryToString } from '../../src/query/index.js';
import { seededRandom as prng } from '../helpers/random.js';

const FRAGMENTS = [
  '(', ')', '"', "'", '/', '\\', ' ', ' ', ' ', '-', ':', '@', '.', '*', '|', 'and', 'or', 'not', 'AND', 'OR', 'NOT',
  'repo:', 'r:', 'file:', '-file:', 'lang:', 'count:', 'timeout:', 'case:', 'type:', 'select:', 'fork:', 'rev:',
  'content:', 'patterntype:', 'foo:', 'a', 'b', 'x', '1', '0', 'yes', 'go', 'regexp', 'standard', 'literal', '10s',
  'all', 'symbol', 'file', '\\/', '\\"', '\n', '\t',
];

function junk(random: () => number): string {
  const length = Math.floor(random() * 16);
  let text = '';
  for (let i = 0; i < length; i++) {
    text += random() < 0.1
      ? String.fromCharCode(32 + Math.floor(random() * 95))
      : FRAGMENTS[Math.floor(random() * FRAGMENTS.length)]!;
  }
  return text;
}

describe('parseQuery on random input', () => {
  it('either parses or throws QUERY_SYNTAX with an in-range position', () => {
    const random = prng(20240601);
    let parsed = 0;
    let rejected = 0;
    for (let i = 0; i < 2000; i++) {
      const text = junk(random);
      try {
        const query = parseQuery(text, { defaultPatternType: (['keyword', 'standard', 'literal', 'regexp'] as const)[i % 4] });
        assert.ok(query.basics.length >= 1, JSON.stringify(text));
        assert.equal(typeof queryToString(query), 'string');
        parsed++;
      } catch (err) {
        assert.ok(err instanceof QuarryError, `${JSON.stringify(text)} threw ${String(err)}`);
        assert.equal(err.code, 'QUERY_SYNTAX', `${JSON.stringify(text)}: ${err.message}`);
        const position = err.details['position'];
        assert.ok(typeof position === 'number' && position >= 0 && position <= text.length, `${JSON.stringify(text)}: ${err.message}`);
        rejected++;
      }
    }
    // Both outcomes must be exercised, or the generator has stopped testing anything.
    assert.ok(parsed > 200 && rejected > 200, `parsed ${parsed}, rejected ${rejected}`);
  });
});
