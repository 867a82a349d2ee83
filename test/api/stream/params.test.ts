/**
 * The stream API's parameters: defaults of reference §3.4, pattern type from t or the version,
 * and a message (for a 400) on every malformed value.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseStreamParams } from '../../../src/api/stream/params.js';

const parse = (query: Record<string, string>) => parseStreamParams(new URLSearchParams(query));

test('defaults: V3 keyword search, no display limit, no line cut, no chunk matches, one context line', () => {
  assert.deepEqual(parse({ q: 'foo' }), { query: 'foo', patternType: 'keyword', display: -1, maxLineLen: -1, chunkMatches: false, contextLines: 1 });
});

test('t wins over the version; V1 and V2 default to standard', () => {
  assert.equal((parse({ q: 'foo', v: 'V2' }) as { patternType: string }).patternType, 'standard');
  assert.equal((parse({ q: 'foo', v: 'V1', t: 'regexp' }) as { patternType: string }).patternType, 'regexp');
});

test('cm takes Go boolean spellings, display and max-line-len integers', () => {
  assert.deepEqual(parse({ q: 'x', cm: 't', display: '5', 'max-line-len': '80', cl: '0' }), { query: 'x', patternType: 'keyword', display: 5, maxLineLen: 80, chunkMatches: true, contextLines: 0 });
  assert.equal((parse({ q: 'x', cm: 'false' }) as { chunkMatches: boolean }).chunkMatches, false);
});

test('malformed values are errors that name the parameter', () => {
  assert.deepEqual(parse({}), { error: 'missing query parameter q' });
  assert.match((parse({ q: 'x', v: 'V9' }) as { error: string }).error, /unknown search version/);
  assert.match((parse({ q: 'x', t: 'fuzzy' }) as { error: string }).error, /unknown pattern type/);
  assert.match((parse({ q: 'x', display: 'ten' }) as { error: string }).error, /^display: /);
  assert.match((parse({ q: 'x', cm: 'maybe' }) as { error: string }).error, /^cm: expected a boolean/);
  assert.match((parse({ q: 'x', 'max-line-len': '-5' }) as { error: string }).error, /^max-line-len: /);
});
