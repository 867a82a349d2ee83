/**
 * Opaque node ids and cursors as Sourcegraph makes them: base64 of `Type:key` (`User:1`).
 */
import { createError } from '../../errors.js';

export function encodeId(type: string, key: string | number): string {
  return Buffer.from(`${type}:${key}`, 'utf8').toString('base64');
}

/** The key inside an id of the expected type; an INVALID_ARGUMENT error for anything else. */
export function decodeId(type: string, id: string): string {
  const text = Buffer.from(id, 'base64').toString('utf8');
  const prefix = `${type}:`;
  if (!text.startsWith(prefix) || text.length === prefix.length) {
    throw createError('INVALID_ARGUMENT', `invalid ${type} ID: ${id}`, { id });
  }
  return text.slice(prefix.length);
}

export function decodeNumericId(type: string, id: string): number {
  const key = decodeId(type, id);
  const n = Number(key);
  if (!Number.isSafeInteger(n)) throw createError('INVALID_ARGUMENT', `invalid ${type} ID: ${id}`, { id });
  return n;
}

/** The type name inside any id, or null when it is not one of ours. */
export function idType(id: string): string | null {
  const text = Buffer.from(id, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon > 0 ? text.slice(0, colon) : null;
}
