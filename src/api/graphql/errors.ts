/**
 * The one place GraphQL errors get their wire shape: QuarryError codes become
 * `extensions.code`, refusals keep Sourcegraph's exact strings, and only messages written for the
 * caller go out: server-side failures and anything unexpected get a fixed text (errors.ts publicMessage).
 */
import { GraphQLError } from 'graphql';
import { isQuarryError, publicMessage } from '../../errors.js';

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
  // Server-side failures (git, the index) keep their code but not their message, which may name
  // the data directory or quote git's stderr.
  wire.message = publicMessage(cause);
  wire.extensions = { code: isQuarryError(cause) ? cause.code : 'INTERNAL' };
  return wire;
}
