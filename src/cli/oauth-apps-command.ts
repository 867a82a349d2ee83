/**
 * `quarry oauth-apps create|list|delete`: OAuth applications of the authorization server. `create`
 * prints a confidential application's secret once, alone on standard output; nothing else prints it.
 */

import { createOAuthApplicationService } from '../auth/oauth/applications.js';
import { formatTable, parseFlags, usageError, type CliIO, type Command } from './command.js';
import { DATA_FLAG } from './data-dir.js';
import { expectArgs, splitList, withStore } from './store-command-kit.js';

const USAGE = `usage: quarry oauth-apps <subcommand> [--data DIR]

  quarry oauth-apps create NAME [--redirect-uris URI,...] [--scopes user:all,mcp] [--public]
  quarry oauth-apps list [--json]
  quarry oauth-apps delete CLIENT_ID    also revokes every token it was given

Scopes: user:all and/or mcp (default user:all). Redirect URIs: https, loopback http or a
private-use scheme; none means the device flow only. Applications are confidential unless
--public: create prints the client id, then the client secret once on standard output.
DIR defaults to $QUARRY_DATA, else ./data.`;

const FLAGS = { ...DATA_FLAG, json: 'boolean', scopes: 'string', 'redirect-uris': 'string', public: 'boolean' } as const;

async function runOAuthApps(args: string[], io: CliIO): Promise<number> {
  const { flags, positionals } = parseFlags(args, FLAGS);
  const [subcommand, ...rest] = positionals;
  if (flags.json === true && subcommand !== 'list') throw usageError(`oauth-apps ${subcommand ?? ''}: --json applies only to list`);
  if ((flags.scopes !== undefined || flags['redirect-uris'] !== undefined || flags.public === true) && subcommand !== 'create') {
    throw usageError(`oauth-apps ${subcommand ?? ''}: --scopes, --redirect-uris and --public apply only to create`);
  }
  switch (subcommand) {
    case 'create': {
      expectArgs('oauth-apps create', rest, ['NAME']);
      const created = await withStore(flags.data, (store) => createOAuthApplicationService(store).create({
        name: rest[0] ?? '',
        redirectUris: splitList(flags['redirect-uris']),
        scopes: flags.scopes === undefined ? ['user:all'] : splitList(flags.scopes),
        confidential: flags.public !== true,
      }));
      const { application, secret } = created;
      io.err(`created ${application.confidential ? 'confidential' : 'public'} OAuth application "${application.name}" with client id:`);
      io.out(application.clientId);
      if (secret !== null) {
        io.err('its client secret is shown only now:');
        io.out(secret);
      }
      return 0;
    }
    case 'list': {
      expectArgs('oauth-apps list', rest, []);
      const apps = await withStore(flags.data, (store) => createOAuthApplicationService(store).list());
      if (flags.json === true) io.out(JSON.stringify(apps, null, 2));
      else {
        const rows = apps.map((a) => [a.clientId, a.name, a.confidential ? 'confidential' : 'public', a.scopes.join(','), a.redirectUris.join(','), a.dynamic ? 'registered' : 'admin', a.createdAt]);
        formatTable([['CLIENT ID', 'NAME', 'TYPE', 'SCOPES', 'REDIRECT URIS', 'MADE BY', 'CREATED'], ...rows]).forEach((l) => io.out(l));
      }
      return 0;
    }
    case 'delete': {
      expectArgs('oauth-apps delete', rest, ['CLIENT_ID']);
      const app = await withStore(flags.data, (store) => createOAuthApplicationService(store).delete(rest[0] ?? ''));
      io.out(`deleted OAuth application "${app.name}" (${app.clientId})`);
      return 0;
    }
    case undefined:
      throw usageError('oauth-apps: missing subcommand (create, list or delete)');
    default:
      throw usageError(`oauth-apps: unknown subcommand "${subcommand}" (create, list or delete)`);
  }
}

export const oauthAppsCommand: Command = {
  name: 'oauth-apps',
  summary: 'create, list and delete OAuth applications',
  usage: USAGE,
  run: runOAuthApps,
};
