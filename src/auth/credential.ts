/**
 * The credential a request presents, found without checking it: the token of its Authorization
 * header (which wins) or of `?token=`, and a fingerprint of it. Nothing here logs or keeps a token.
 */
import * as crypto from 'node:crypto';
import { parseAuthorizationHeader } from './authorization-header.js';

export type Presented =
  | { readonly kind: 'none' }
  /** An Authorization header that names no token: authentication will refuse it. */
  | { readonly kind: 'malformed' }
  | { readonly kind: 'token'; readonly token: string };

const NONE: Presented = { kind: 'none' };
const MALFORMED: Presented = { kind: 'malformed' };

/** The same precedence as the authenticator: a non-empty Authorization header, else `?token=`. */
export function presentedCredential(headers: Readonly<Record<string, string | undefined>>, query: URLSearchParams): Presented {
  const header = headers['authorization'];
  if (header !== undefined && header.trim() !== '') {
    const parsed = parseAuthorizationHeader(header);
    return parsed.ok ? { kind: 'token', token: parsed.credentials.token } : MALFORMED;
  }
  const token = query.get('token');
  return token === null || token === '' ? NONE : { kind: 'token', token };
}

/** One-shot hashing (Node 20.12+) costs half of a Hash object's, and this runs on every request. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string }).hash;

/** SHA-256 of the token, base64url: what may be kept in memory to recognise a caller. */
export function credentialFingerprint(token: string): string {
  return oneShot !== undefined ? oneShot('sha256', token, 'base64url') : crypto.createHash('sha256').update(token).digest('base64url');
}
