/**
 * The one error catalog: every error Quarry raises on purpose carries a code from here.
 * Front doors (CLI, HTTP, GraphQL, MCP) map codes to wire errors in exactly one place each.
 */

export type ErrorCode =
  | 'QUERY_SYNTAX'
  | 'QUERY_UNSUPPORTED'
  | 'PATTERN_UNSUPPORTED'
  | 'PATTERN_INVALID'
  | 'REPO_NOT_FOUND'
  | 'REPO_EXISTS'
  | 'REPO_SOURCE_INVALID'
  | 'REVISION_NOT_FOUND'
  | 'GIT_FAILED'
  | 'INDEX_CORRUPT'
  | 'INDEX_BUSY'
  | 'INDEX_FORMAT'
  | 'INDEX_WRITE_FAILED'
  | 'DISK_FULL'
  | 'SHARD_CRASHED'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'NATIVE_UNAVAILABLE'
  | 'REMOTE_FAILED'
  | 'USER_EXISTS'
  | 'USER_NOT_FOUND'
  | 'ROLE_EXISTS'
  | 'ROLE_NOT_FOUND'
  | 'TOKEN_NOT_FOUND'
  | 'INVALID_ARGUMENT'
  | 'FORBIDDEN'
  | 'CONFIG_STALE'
  | 'CONFIG_INVALID'
  | 'USAGE'
  | 'INTERNAL';

export class QuarryError extends Error {
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'QuarryError';
    this.code = code;
    this.details = details;
  }
}

export function createError(code: ErrorCode, message: string, details: Record<string, unknown> = {}): QuarryError {
  return new QuarryError(code, message, details);
}

export function isQuarryError(err: unknown, code?: ErrorCode): err is QuarryError {
  return err instanceof QuarryError && (code === undefined || err.code === code);
}

/** A one-line message for any thrown value; never includes a stack. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message.split('\n')[0] ?? err.message;
  return String(err);
}
