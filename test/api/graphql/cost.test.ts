/**
 * measureQueryCost on documents whose cost can be counted by hand: depth through fragments,
 * aliases, `first` multipliers, duplicates per selection set, unique names, operation choice.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getIntrospectionQuery, parse } from 'graphql';
import { DEFAULT_COST_LIMITS, exceedsLimits, measureQueryCost } from '../../../src/api/graphql/cost.js';

test('depth counts nesting through named and inline fragments', () => {
  const doc = parse('{ a { ...F } } fragment F on T { b { ... on U { c { d } } } }');
  assert.equal(measureQueryCost(doc, null).depth, 4);
});

test('fields multiply by first, literal or variable', () => {
  const doc = parse('query ($n: Int) { r(first: 10) { nodes { x y } } s(first: $n) { z } }');
  // r 1, nodes 10, x 10, y 10, s 1, z 3
  assert.equal(measureQueryCost(doc, null, { n: 3 }).fields, 35);
  assert.equal(measureQueryCost(doc, null, {}).fields, 33);
});

test('aliases, duplicates and unique names', () => {
  const cost = measureQueryCost(parse('{ a: x b: x x x { y } z { y } }'), null);
  assert.deepEqual({ aliases: cost.aliases, duplicates: cost.duplicates, unique: cost.uniqueFields }, { aliases: 2, duplicates: 1, unique: 3 });
});

test('only the named operation is measured', () => {
  const doc = parse('query A { a { b { c } } } query B { d }');
  assert.equal(measureQueryCost(doc, 'B').depth, 1);
  assert.equal(measureQueryCost(doc, 'A').depth, 3);
});

test('the introspection query is within the default limits', () => {
  const cost = measureQueryCost(parse(getIntrospectionQuery()), null);
  assert.equal(exceedsLimits(cost, DEFAULT_COST_LIMITS), false);
  assert.ok(cost.depth > 5);
});
