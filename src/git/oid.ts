/**
 * Git object ids as Quarry passes them around: lower-case hex, SHA-1 (40) or SHA-256 (64).
 * Anything that writes an oid into a git protocol stream must check it here first.
 */

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export function isObjectId(value: string): boolean {
  return OBJECT_ID.test(value);
}
