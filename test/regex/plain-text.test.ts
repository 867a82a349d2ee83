/**
 * Plain-text patterns (repo: filters as Sourcegraph clients send them) are answered with string
 * operations: what they match, and where, must equal what the JS engine says for the same plan.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesPlain, planRegex, plainRanges } from '../../src/regex/index.js';
import { seededRandom } from '../helpers/random.js';

const plainOf = (source: string, caseSensitive = false) => planRegex(source, { caseSensitive }).plain;

describe('plain text patterns', () => {
  it('recognises literals with line anchors, and only those', () => {
    assert.deepEqual(plainOf('^github\\.com/psf/requests$'), { text: 'github.com/psf/requests', caseless: true, atLineStart: true, atLineEnd: true });
    assert.deepEqual(plainOf('requests', true), { text: 'requests', caseless: false, atLineStart: false, atLineEnd: false });
    assert.deepEqual(plainOf('\\Afoo'), { text: 'foo', caseless: true, atLineStart: true, atLineEnd: false });
    for (const source of ['req.ests', 'a|b', 'ab*', '[ab]', '(?i)a(?-i)B', 'é', '\\bfoo']) assert.equal(plainOf(source), null, source);
    assert.notEqual(plainOf('é', true), null);
  });

  it('matches and finds ranges exactly as the JS engine does, on random subjects', () => {
    const random = seededRandom(12);
    const pick = (chars: string, n: number) => Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join('');
    const alphabet = 'abAB/\n.kK\u212as\u017f';
    for (let round = 0; round < 3000; round++) {
      const text = pick('abAB/.kKs', 1 + Math.floor(random() * 3));
      const anchors = Math.floor(random() * 4);
      const source = `${anchors & 1 ? '^' : ''}${text.replace(/[.]/g, '\\.')}${anchors & 2 ? '$' : ''}`;
      const plan = planRegex(source, { caseSensitive: random() < 0.3 });
      assert.ok(plan.plain !== null, source);
      const subject = pick(alphabet, Math.floor(random() * 12));
      const js = new RegExp(plan.spec.js, `gm${plan.spec.caseless ? 'iu' : 'u'}`);
      const expected = [...subject.matchAll(js)].map((m): [number, number] => [m.index, m.index + m[0].length]);
      assert.equal(matchesPlain(plan.plain, subject), expected.length > 0, `${source} on ${JSON.stringify(subject)}`);
      assert.deepEqual(plainRanges(plan.plain, subject), expected, `${source} on ${JSON.stringify(subject)}`);
    }
  });
});
