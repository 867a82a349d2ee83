/**
 * nls_search's query reading: stopwords, identifier splitting, stemming, filters, and the engine query.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stem } from '../../../../src/api/mcp/tools/nls-stem.js';
import { describeTerms, engineQuery, isIdentifier, parseNlsQuery, splitIdentifier, SYNONYM_WEIGHT } from '../../../../src/api/mcp/tools/nls-terms.js';

test('forms of one word stem to a prefix they all share', () => {
  for (const [words, expected] of [
    [['authentication', 'authenticate', 'authenticated'], 'authent'],
    [['parse', 'parsed', 'parser', 'parsing', 'parses'], 'pars'],
    [['retry', 'retries', 'retrying'], 'retr'],
    [['cache', 'caches', 'caching', 'cached'], 'cach'],
    [['connection', 'connections', 'connected'], 'connect'],
    [['initialize', 'initialization', 'initializer'], 'initializ'],
    [['logging', 'logs'], 'log'],
  ] as const) {
    for (const word of words) {
      assert.equal(stem(word), expected, word);
      assert.ok(word.startsWith(expected), `${expected} must prefix ${word}`);
    }
  }
});

test('short and word-final forms are left alone', () => {
  assert.equal(stem('user'), 'user');
  assert.equal(stem('status'), 'status');
  assert.equal(stem('class'), 'class');
  assert.equal(stem('log'), 'log');
  assert.equal(stem('uses'), 'use');
});

test('identifiers split into lower-case parts', () => {
  assert.deepEqual(splitIdentifier('parseHTTPRequest'), ['parse', 'http', 'request']);
  assert.deepEqual(splitIdentifier('max_retry_count'), ['max', 'retry', 'count']);
  assert.deepEqual(splitIdentifier('flush-cache'), ['flush', 'cache']);
  assert.equal(isIdentifier('parseHTTPRequest'), true);
  assert.equal(isIdentifier('HTTP'), false);
  assert.equal(isIdentifier('Login'), false);
});

test('question words and stopwords drop out; the whole identifier weighs more than its parts', () => {
  const nls = parseNlsQuery('where is parseHTTPRequest implemented in the code?');
  assert.deepEqual(nls.terms.filter((t) => t.weight >= 1).map((t) => [t.text, t.weight]), [['parsehttprequest', 2], ['pars', 1], ['http', 1], ['request', 1]]);
  assert.equal(nls.concepts, 1);
});

test('words with the same stem are one concept, and abbreviations join their word', () => {
  const nls = parseNlsQuery('authenticate authentication configuration');
  assert.deepEqual(nls.terms.filter((t) => t.weight > SYNONYM_WEIGHT).map((t) => [t.text, t.concept]), [['authent', 0], ['auth', 0], ['configur', 1], ['config', 1]]);
  assert.equal(nls.concepts, 2);
});

test('filters pass through unchanged and the terms are ORed in one regexp query', () => {
  const nls = parseNlsQuery('repo:^github.com/acme/app$ file:\\.ts$ how does login check the user session');
  assert.deepEqual(nls.filters, ['repo:^github.com/acme/app$', 'file:\\.ts$']);
  assert.equal(engineQuery(nls), 'repo:^github.com/acme/app$ file:\\.ts$ patterntype:regexp credential|authent|signin|check|login|valid|verif|sess|user count:3000');
  assert.equal(describeTerms(nls), 'Searched for: login (or authent, credential, signin), check (or valid, verif), user, sess (stemmed; any term matches)');
  assert.equal(engineQuery(parseNlsQuery('login count:50')), 'count:50 patterntype:regexp credential|authent|signin|login');
});

test('a query of stopwords and short words has no terms', () => {
  assert.deepEqual(parseNlsQuery('how does it do that? repo:x').terms, []);
});

test('other words for a concept join it at a lower weight, and never as a short prefix of unrelated words', () => {
  const nls = parseNlsQuery('remove the settings');
  const terms = new Map(nls.terms.map((t) => [t.text, t]));
  assert.equal(nls.concepts, 2);
  for (const synonym of ['delet', 'eras']) {
    assert.equal(terms.get(synonym)?.concept, terms.get('remov')!.concept, synonym);
    assert.equal(terms.get(synonym)?.weight, SYNONYM_WEIGHT);
  }
  // "settings" is searched as itself: its stem "set" would find every setter.
  assert.equal(terms.get('setting')?.concept, terms.get('configur')?.concept);
  assert.equal(terms.has('set'), false);
  assert.equal(parseNlsQuery('integer value').terms.some((t) => t.text === 'int'), false, 'int would match every interface');
});

test('synonyms and abbreviations name the question term they stand for; the question\'s own terms name none', () => {
  const terms = new Map(parseNlsQuery('remove the configuration').terms.map((t) => [t.text, t]));
  assert.equal(terms.get('delet')?.formOf, 'remov');
  assert.equal(terms.get('cfg')?.formOf, 'configur');
  assert.equal(terms.get('remov')?.formOf, undefined);
  assert.equal(terms.get('configur')?.formOf, undefined);
  // A word the question says itself is its own term, even when another word also names it as a synonym.
  const both = new Map(parseNlsQuery('remove or delete').terms.map((t) => [t.text, t]));
  assert.equal(both.get('delet')?.formOf, undefined);
});

test('a phrase code writes as one word is one concept, searched by that word too', () => {
  const nls = parseNlsQuery('where is a regular expression compiled');
  assert.equal(nls.concepts, 2);
  const concept = (text: string): number | undefined => nls.terms.find((t) => t.text === text)?.concept;
  assert.equal(concept('regex'), concept('regular'));
  assert.equal(concept('express'), concept('regular'));
  assert.notEqual(concept('compil'), concept('regular'));
});
