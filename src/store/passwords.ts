/**
 * Password hashes: scrypt with a per-password random salt, stored as one self-describing string.
 * Verification runs scrypt off the main thread and compares in constant time.
 */

import { randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

const COST = 16384;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64. */
export function hashPassword(password: string): string {
  const salt = randomBytes(SALT_LENGTH);
  const hash = scryptSync(password, salt, KEY_LENGTH, { N: COST, r: BLOCK_SIZE, p: PARALLELISM });
  return ['scrypt', COST, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), hash.toString('base64')].join('$');
}

// Checked against when there is no stored hash, so a missing account costs the same time. Made
// on first use: hashing at import would slow every CLI command.
let decoyHash: string | undefined;

/** True when `password` matches `stored`; a null or unreadable `stored` never matches. */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  const parts = (stored ?? (decoyHash ??= hashPassword(randomBytes(SALT_LENGTH).toString('hex')))).split('$');
  const [scheme, n, r, p, salt, hash] = parts;
  if (parts.length !== 6 || scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64');
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  const actual = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password, Buffer.from(salt, 'base64'), expected.length, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
  return stored !== null && timingSafeEqual(actual, expected);
}
