/**
 * Repository names, shaped like `github.com/org/repo`: safe as store keys, URL paths and log text.
 * Validation only; names never become file system paths (mirrors are stored by id).
 */

import { createError } from '../errors.js';

const MAX_NAME_LENGTH = 200;
const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Why `name` is not a valid repository name, or null when it is. */
export function repoNameProblem(name: string): string | null {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return `must be 1 to ${MAX_NAME_LENGTH} characters`;
  if (name.startsWith('/') || name.endsWith('/')) return 'must not start or end with "/"';
  if (name.includes('..')) return 'must not contain ".."';
  for (const segment of name.split('/')) {
    if (segment === '') return 'must not contain empty segments ("//")';
    if (segment === '.') return 'must not contain "." segments';
    if (!SEGMENT.test(segment)) return 'may contain only letters, digits, ".", "_", "-" and "/" between segments';
  }
  return null;
}

export function validateRepoName(name: string): void {
  const problem = repoNameProblem(name);
  if (problem !== null) throw createError('USAGE', `invalid repository name ${JSON.stringify(name.slice(0, 220))}: ${problem}`, { name });
}
