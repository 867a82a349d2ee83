/**
 * The two ways the query parser fails: malformed text (QUERY_SYNTAX) and valid Sourcegraph syntax
 * that Quarry does not implement (QUERY_UNSUPPORTED). Both carry the 0-based offset of the problem.
 */
import { createError, type QuarryError } from '../errors.js';

export function syntaxError(problem: string, position: number): QuarryError {
  return createError('QUERY_SYNTAX', `query: ${problem} at position ${position}`, { position });
}

export function unsupportedError(problem: string, position: number): QuarryError {
  return createError('QUERY_UNSUPPORTED', `query: ${problem} at position ${position}`, { position });
}
