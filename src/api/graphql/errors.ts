/**
 * The one place GraphQL errors get their wire shape: QuarryError codes become
 * `extensions.code`, refusals keep Sourcegraph's exact strings, anything unexpected is hidden.
 */
import { GraphQLError } from 'graphql';
import { isQuarryError } from '../../errors.js';

export const MUST_BE_SITE_ADMIN = 'must be site admin';
export const MUST_BE_USER_OR_ADMIN = 'must be authenticated as the authorized user or site admin';

/** A refusal by the resolvers' authorization checks; Sourcegraph sends these without a code. */
export class AccessDenied extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccessDenied';
  }
}

export interface WireError {
  message: string;
  locations?: readonly { line: number; column: number }[];
  path?: readonly (string | number)[];
  extensions?: { code: string };
}

/** Maps an error from parse, validate or execute (graphql-js or graphql-jit) to its wire form. */
export function toGraphQLError(err: GraphQLError): WireError {
  const cause = err.originalError;
  const wire: WireError = { message: err.message };
  if (err.locations) wire.locations = err.locations;
  if (err.path) wire.path = err.path;
  if (cause === undefined || cause instanceof GraphQLError || cause instanceof AccessDenied) return wire;
  if (isQuarryError(cause)) {
    wire.message = cause.message;
    wire.extensions = { code: cause.code };
    return wire;
  }
  wire.message = 'internal error';
  wire.extensions = { code: 'INTERNAL' };
  return wire;
}
