/**
 * `quarry config get|set`: the site configuration document. `get` prints the raw text on
 * standard output and its revision on standard error, so its output can be edited and set back.
 */

import { readFile } from 'node:fs/promises';
import { getSiteConfig, updateSiteConfig } from '../store/site-config.js';
import { SITE_CONFIG_KEYS } from '../store/site-config-schema.js';
import { parseFlags, usageError, type CliIO, type Command } from './command.js';
import { DATA_FLAG } from './data-dir.js';
import { expectArgs, readStdin, withStore } from './store-command-kit.js';

const USAGE = `usage: quarry config <subcommand> [--data DIR]

  quarry config get [--json]             print the document (revision on stderr; --json: id,
                                         contents and effective settings)
  quarry config set FILE|- [--last-id N] store a new revision (- reads standard input); N is the
                                         revision the edit started from (default: the current)

The document is JSON with comments and trailing commas. Settings may be written dotted
("mcp.enabled": false) or nested ("mcp": {"enabled": false}). Known settings:
  ${SITE_CONFIG_KEYS.join('\n  ')}
DIR defaults to $QUARRY_DATA, else ./data.`;

const FLAGS = { ...DATA_FLAG, json: 'boolean', 'last-id': 'string' } as const;

function parseLastId(text: string): number {
  const id = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id)) throw usageError(`config set: --last-id must be a revision number, not "${text}"`);
  return id;
}

async function runConfig(args: string[], io: CliIO): Promise<number> {
  const { flags, positionals } = parseFlags(args, FLAGS);
  const [subcommand, ...rest] = positionals;
  if (flags.json === true && subcommand !== undefined && subcommand !== 'get') throw usageError(`config ${subcommand}: --json applies only to get`);
  if (flags['last-id'] !== undefined && subcommand !== 'set') throw usageError(`config ${subcommand ?? ''}: --last-id applies only to set`);
  switch (subcommand) {
    case 'get': {
      expectArgs('config get', rest, []);
      const config = await withStore(flags.data, getSiteConfig);
      if (flags.json === true) io.out(JSON.stringify(config, null, 2));
      else {
        io.err(`site configuration revision ${config.id}`);
        io.out(config.contents.replace(/\n$/, ''));
      }
      return 0;
    }
    case 'set': {
      expectArgs('config set', rest, ['FILE']);
      const source = rest[0] ?? '';
      const contents = source === '-' ? await readStdin() : await readFile(source, 'utf8');
      const lastId = flags['last-id'] === undefined ? undefined : parseLastId(flags['last-id']);
      const id = await withStore(flags.data, (store) => updateSiteConfig(store, lastId ?? getSiteConfig(store).id, contents));
      io.out(`site configuration is now revision ${id}`);
      return 0;
    }
    case undefined:
      throw usageError('config: missing subcommand (get or set)');
    default:
      throw usageError(`config: unknown subcommand "${subcommand}" (get or set)`);
  }
}

export const configCommand: Command = {
  name: 'config',
  summary: 'show and change the site configuration',
  usage: USAGE,
  run: runConfig,
};
