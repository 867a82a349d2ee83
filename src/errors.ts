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
  | 'STORE_CONFLICT'
  | 'STORE_UNAVAILABLE'
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

/**
 * Codes whose messages are written for whoever sent the request: they name only what the caller
 * sent and what to change. Every other code is the server's own failure, and its message may hold
 * paths of the data directory or git's stderr.
 */
const CALLER_FACING: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'QUERY_SYNTAX', 'QUERY_UNSUPPORTED', 'PATTERN_UNSUPPORTED', 'PATTERN_INVALID', 'REPO_NOT_FOUND',
  'REPO_EXISTS', 'REVISION_NOT_FOUND', 'TIMEOUT', 'ABORTED', 'USER_EXISTS', 'USER_NOT_FOUND',
  'ROLE_EXISTS', 'ROLE_NOT_FOUND', 'TOKEN_NOT_FOUND', 'INVALID_ARGUMENT', 'FORBIDDEN', 'CONFIG_STALE',
  'CONFIG_INVALID',
]);

/** What a remote caller learns of a server-side failure, by code; the details belong in the log. */
const SERVER_FAILURE: Partial<Record<ErrorCode, string>> = {
  GIT_FAILED: 'git failed to read the repository',
  INDEX_CORRUPT: 'the search index is damaged; an administrator must re-index the repository',
  INDEX_FORMAT: 'the search index has an old format; an administrator must re-index the repository',
  INDEX_BUSY: 'the search index is busy; try again shortly',
  SHARD_CRASHED: 'an index shard could not be searched',
  REMOTE_FAILED: 'a remote request failed',
  STORE_CONFLICT: 'another server changed the same records at the same time; try again',
  STORE_UNAVAILABLE: 'the database is unavailable; try again shortly',
};

export function isCallerFacing(err: unknown): err is QuarryError {
  return err instanceof QuarryError && CALLER_FACING.has(err.code);
}

/**
 * The message a remote caller may see for any thrown value: the error's own message when it was
 * written for the caller, else a fixed one for its code. Never a path, git's stderr or a stack.
 */
export function publicMessage(err: unknown): string {
  if (isCallerFacing(err)) return errorMessage(err);
  if (isQuarryError(err, 'GIT_FAILED') && err.details['timedOut'] === true) return 'git timed out reading the repository';
  return (err instanceof QuarryError ? SERVER_FAILURE[err.code] : undefined) ?? 'internal error';
}

/** A one-line message for any thrown value; never includes a stack. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message.split('\n')[0] ?? err.message;
  return String(err);
}
