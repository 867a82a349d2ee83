/**
 * Shared assertions for the query-language tests: canonical strings and positioned errors.
 */
import assert from 'node:assert/strict';
import { QuarryError, type ErrorCode } from '../../src/errors.js';
import { parseQuery, queryToString, type ParseOptions } from '../../src/query/index.js';

export function canonical(text: string, opts?: ParseOptions): string {
  return queryToString(parseQuery(text, opts));
}

export function assertQueryError(text: string, position: number, problem: string | RegExp, code: ErrorCode = 'QUERY_SYNTAX'): void {
  assert.throws(
    () => parseQuery(text),
    (err: unknown) => {
      assert.ok(err instanceof QuarryError, `expected QuarryError for ${JSON.stringify(text)}, got ${String(err)}`);
      assert.equal(err.code, code, `${JSON.stringify(text)}: ${err.message}`);
      assert.equal(err.details['position'], position, `${JSON.stringify(text)}: ${err.message}`);
      assert.match(err.message, new RegExp(`^query: .* at position ${position}$`));
      if (typeof problem === 'string') assert.ok(err.message.includes(problem), `${err.message} lacks "${problem}"`);
      else assert.match(err.message, problem);
      return true;
    },
  );
}
