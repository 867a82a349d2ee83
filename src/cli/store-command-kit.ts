/**
 * Shared pieces of the account, role, permission and configuration commands: opening the store
 * for one command, argument counts, comma lists, users by name and standard input.
 */

import { createError } from '../errors.js';
import { databaseUrlFromEnv } from '../config.js';
import { openStoreAt } from '../store/open.js';
import type { Store, UserRecord } from '../store/records.js';
import { getUserByName } from '../store/users.js';
import { usageError } from './command.js';
import { resolveDataDir } from './data-dir.js';

/** The store of QUARRY_DATABASE_URL when set, else the data directory's; the command succeeds only once its writes are committed. */
export async function withStore<T>(dataFlag: string | undefined, action: (store: Store) => T | Promise<T>): Promise<T> {
  const store = await openStoreAt(resolveDataDir(dataFlag), databaseUrlFromEnv());
  try {
    const result = await action(store);
    await store.root.committed();
    return result;
  } finally {
    await store.close();
  }
}

export function expectArgs(command: string, args: readonly string[], names: readonly string[]): void {
  if (args.length < names.length) throw usageError(`${command}: missing ${names.slice(args.length).join(' ')}`);
  if (args.length > names.length) throw usageError(`${command}: unexpected argument "${args[names.length] ?? ''}"`);
}

/** `a,b, c` → ['a', 'b', 'c']; undefined or empty → []. */
export function splitList(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

export function requireUserByName(store: Store, username: string): UserRecord {
  const user = getUserByName(store, username);
  if (user === undefined) throw createError('USER_NOT_FOUND', `no such user: ${username}`, { username });
  return user;
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
