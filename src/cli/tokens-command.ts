/**
 * `quarry tokens create|list|revoke`: access tokens. `create` prints the token once, alone on
 * standard output; nothing else ever prints a token.
 */

import type { AccessTokenRecord, Store } from '../store/records.js';
import { createAccessToken, listAccessTokens, revokeAccessToken, TOKEN_SCOPES } from '../store/tokens.js';
import { getUser } from '../store/users.js';
import { formatTable, parseFlags, usageError, type CliIO, type Command } from './command.js';
import { DATA_FLAG } from './data-dir.js';
import { expectArgs, requireUserByName, splitList, withStore } from './store-command-kit.js';

const USAGE = `usage: quarry tokens <subcommand> [--data DIR]

  quarry tokens create USER [--scopes user:all,mcp] [--note TEXT]
  quarry tokens list [USER] [--json]
  quarry tokens revoke ID

Scopes: ${TOKEN_SCOPES.join(', ')} (default user:all). A site-admin:sudo token can only be
made for a site admin. create prints the token once on standard output; store it then.
DIR defaults to $QUARRY_DATA, else ./data.`;

const FLAGS = { ...DATA_FLAG, json: 'boolean', scopes: 'string', note: 'string' } as const;

function tokenRow(store: Store, token: AccessTokenRecord): string[] {
  return [
    String(token.id), getUser(store, token.userId)?.username ?? `#${token.userId}`, token.scopes.join(','), token.note,
    token.createdAt, token.lastUsedAt ?? 'never', token.revoked ? 'revoked' : 'active',
  ];
}

function parseId(text: string): number {
  const id = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id)) throw usageError(`tokens revoke: "${text}" is not a token id`);
  return id;
}

async function runTokens(args: string[], io: CliIO): Promise<number> {
  const { flags, positionals } = parseFlags(args, FLAGS);
  const [subcommand, ...rest] = positionals;
  if (flags.json === true && subcommand !== undefined && subcommand !== 'list') throw usageError(`tokens ${subcommand}: --json applies only to list`);
  if ((flags.scopes !== undefined || flags.note !== undefined) && subcommand !== 'create') {
    throw usageError(`tokens ${subcommand ?? ''}: --scopes and --note apply only to create`);
  }
  switch (subcommand) {
    case 'create': {
      expectArgs('tokens create', rest, ['USER']);
      const scopes = flags.scopes === undefined ? ['user:all'] : splitList(flags.scopes);
      const created = await withStore(flags.data, (store) => {
        const user = requireUserByName(store, rest[0] ?? '');
        return { user, ...createAccessToken(store, { userId: user.id, creatorId: user.id, scopes, note: flags.note ?? '' }) };
      });
      io.err(`created token ${created.id} for ${created.user.username}; it is shown only now:`);
      io.out(created.token);
      return 0;
    }
    case 'list': {
      if (rest.length > 1) throw usageError(`tokens list: unexpected argument "${rest[1] ?? ''}"`);
      return withStore(flags.data, (store) => {
        const userId = rest[0] === undefined ? undefined : requireUserByName(store, rest[0]).id;
        const tokens = listAccessTokens(store, userId);
        if (flags.json === true) io.out(JSON.stringify(tokens, null, 2));
        else formatTable([['ID', 'USER', 'SCOPES', 'NOTE', 'CREATED', 'LAST USED', 'STATUS'], ...tokens.map((t) => tokenRow(store, t))]).forEach((l) => io.out(l));
        return 0;
      });
    }
    case 'revoke': {
      expectArgs('tokens revoke', rest, ['ID']);
      const id = parseId(rest[0] ?? '');
      const token = await withStore(flags.data, (store) => revokeAccessToken(store, id));
      io.out(`revoked token ${token.id}`);
      return 0;
    }
    case undefined:
      throw usageError('tokens: missing subcommand (create, list or revoke)');
    default:
      throw usageError(`tokens: unknown subcommand "${subcommand}" (create, list or revoke)`);
  }
}

export const tokensCommand: Command = {
  name: 'tokens',
  summary: 'create, list and revoke access tokens',
  usage: USAGE,
  run: runTokens,
};
