/**
 * toGraphQLError: QuarryError codes reach `extensions.code`, refusals keep Sourcegraph's bare
 * message, and an unexpected exception never leaks its text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GraphQLError } from 'graphql';
import { createError } from '../../../src/errors.js';
import { AccessDenied, MUST_BE_SITE_ADMIN, toGraphQLError } from '../../../src/api/graphql/errors.js';

const located = (original: Error): GraphQLError => new GraphQLError(original.message, { path: ['a', 0, 'b'], originalError: original });

test('a QuarryError keeps its message and carries its code', () => {
  assert.deepEqual(toGraphQLError(located(createError('ROLE_NOT_FOUND', 'role not found: X'))), {
    message: 'role not found: X', path: ['a', 0, 'b'], extensions: { code: 'ROLE_NOT_FOUND' },
  });
});

test('an AccessDenied refusal is a bare message with its path', () => {
  assert.deepEqual(toGraphQLError(located(new AccessDenied(MUST_BE_SITE_ADMIN))), { message: 'must be site admin', path: ['a', 0, 'b'] });
});

test('an unexpected exception is hidden behind internal error', () => {
  assert.deepEqual(toGraphQLError(located(new TypeError('secret detail at /etc/x'))), {
    message: 'internal error', path: ['a', 0, 'b'], extensions: { code: 'INTERNAL' },
  });
});

test('a validation error keeps message and locations', () => {
  const err = new GraphQLError('Unknown argument "x".', { source: undefined });
  assert.deepEqual(toGraphQLError(err), { message: 'Unknown argument "x".' });
});
