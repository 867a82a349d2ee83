/**
 * What crosses between the compile guard and its child process: a pattern set to compile, and how
 * compiling it went. Plain clone-safe data.
 */
import type { ErrorCode } from '../errors.js';
import type { PatternSpec } from '../matcher/matcher.js';
import type { EnginePreference } from '../matcher/select.js';

export interface GuardRequest {
  readonly id: number;
  readonly patterns: readonly PatternSpec[];
  readonly preference: EnginePreference;
}

/** id -1 is the child's "ready" message, sent once its modules are loaded. */
export type GuardReply =
  | { readonly id: number; readonly ok: true; readonly ms: number }
  | { readonly id: number; readonly ok: false; readonly code: ErrorCode; readonly message: string };
