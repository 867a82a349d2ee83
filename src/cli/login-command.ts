/**
 * `quarry login [ENDPOINT]`: signs the command line in to a Quarry (or Sourcegraph) server through
 * OAuth's device flow and saves the tokens to ~/src-config.json (mode 0600), which `quarry api`
 * and `quarry search --remote|--stream` then use, refreshing the access token when it expires.
 */
import { parseFlags, usageError, type CliIO, type Command } from './command.js';
import { resolveEndpoint } from './remote/endpoint.js';
import { deviceLogin } from './remote/oauth-login.js';

const USAGE = `usage: quarry login [ENDPOINT]

Prints a URL and a code: open the URL in a browser, sign in, enter the code and allow.
ENDPOINT defaults to $SRC_ENDPOINT, else the endpoint in ~/src-config.json, else
http://127.0.0.1:7080. The access token and its refresh token are saved to ~/src-config.json
(readable by you alone); SRC_ACCESS_TOKEN, when set, still takes precedence.`;

async function runLogin(args: string[], io: CliIO): Promise<number> {
  const { positionals } = parseFlags(args, {});
  if (positionals.length > 1) throw usageError(`login: unexpected argument "${positionals[1] ?? ''}"`);
  const endpoint = positionals[0] ?? resolveEndpoint().url;
  const path = await deviceLogin(endpoint, { tell: (line) => io.err(line) });
  io.out(`signed in to ${endpoint}; saved to ${path}`);
  return 0;
}

export const loginCommand: Command = {
  name: 'login',
  summary: 'sign in to a server through the browser (OAuth device flow)',
  usage: USAGE,
  run: runLogin,
};
