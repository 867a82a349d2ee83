/**
 * `quarry users create|list|delete`: user accounts in the instance store. Prints no password
 * hashes; passwords arrive only on standard input.
 */

import { createUser, listUsers } from '../store/users.js';
import { deleteUser } from '../store/deletions.js';
import type { UserRecord } from '../store/records.js';
import { formatTable, parseFlags, usageError, type CliIO, type Command } from './command.js';
import { DATA_FLAG } from './data-dir.js';
import { expectArgs, readStdin, requireUserByName, withStore } from './store-command-kit.js';

const USAGE = `usage: quarry users <subcommand> [--data DIR]

  quarry users create NAME [--email E] [--display-name D] [--password-stdin]
                           [--site-admin] [--service-account]
  quarry users list [--json]
  quarry users delete NAME      also deletes the user's tokens and role assignments

--password-stdin reads the password from standard input (one trailing newline is dropped).
Service accounts have no password and use access tokens only.
DIR defaults to $QUARRY_DATA, else ./data.`;

const FLAGS = {
  ...DATA_FLAG, json: 'boolean', email: 'string', 'display-name': 'string',
  'password-stdin': 'boolean', 'site-admin': 'boolean', 'service-account': 'boolean',
} as const;

function publicFields(user: UserRecord): Omit<UserRecord, 'passwordHash'> & { hasPassword: boolean } {
  const { passwordHash, ...rest } = user;
  return { ...rest, hasPassword: passwordHash !== null };
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

async function readPassword(): Promise<string> {
  return (await readStdin()).replace(/\r?\n$/, '');
}

async function runUsers(args: string[], io: CliIO): Promise<number> {
  const { flags, positionals } = parseFlags(args, FLAGS);
  const [subcommand, ...rest] = positionals;
  if (flags.json === true && subcommand !== undefined && subcommand !== 'list') throw usageError(`users ${subcommand}: --json applies only to list`);
  switch (subcommand) {
    case 'create': {
      expectArgs('users create', rest, ['NAME']);
      const password = flags['password-stdin'] === true ? await readPassword() : undefined;
      const user = await withStore(flags.data, (store) => createUser(store, {
        username: rest[0] ?? '',
        ...(flags.email === undefined ? {} : { email: flags.email }),
        ...(flags['display-name'] === undefined ? {} : { displayName: flags['display-name'] }),
        ...(password === undefined ? {} : { password }),
        siteAdmin: flags['site-admin'] === true,
        serviceAccount: flags['service-account'] === true,
      }));
      io.out(`created user ${user.username} (id ${user.id}${user.siteAdmin ? ', site admin' : ''}${user.serviceAccount ? ', service account' : ''})`);
      return 0;
    }
    case 'list': {
      expectArgs('users list', rest, []);
      const users = await withStore(flags.data, listUsers);
      if (flags.json === true) io.out(JSON.stringify(users.map(publicFields), null, 2));
      else {
        const rows = users.map((u) => [String(u.id), u.username, u.displayName ?? '', u.email ?? '', yesNo(u.siteAdmin), yesNo(u.serviceAccount), u.createdAt]);
        formatTable([['ID', 'USERNAME', 'DISPLAY NAME', 'EMAIL', 'SITE ADMIN', 'SERVICE ACCOUNT', 'CREATED'], ...rows]).forEach((line) => io.out(line));
      }
      return 0;
    }
    case 'delete': {
      expectArgs('users delete', rest, ['NAME']);
      const user = await withStore(flags.data, (store) => {
        const found = requireUserByName(store, rest[0] ?? '');
        deleteUser(store, found.id);
        return found;
      });
      io.out(`deleted user ${user.username}`);
      return 0;
    }
    case undefined:
      throw usageError('users: missing subcommand (create, list or delete)');
    default:
      throw usageError(`users: unknown subcommand "${subcommand}" (create, list or delete)`);
  }
}

export const usersCommand: Command = {
  name: 'users',
  summary: 'create, list and delete user accounts',
  usage: USAGE,
  run: runUsers,
};
