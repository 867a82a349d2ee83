/**
 * `quarry repos restrict|public`: who may read a repository. Wraps the `repos` command so the
 * registry's own subcommands stay in repos.ts untouched; everything else passes through to it.
 */

import { createError } from '../errors.js';
import { getRepo } from '../store/repos.js';
import { makeRepoPublic, restrictRepo } from '../store/repo-permissions.js';
import { parseFlags, type CliIO, type Command } from './command.js';
import { DATA_FLAG } from './data-dir.js';
import { expectArgs, requireUserByName, splitList, withStore } from './store-command-kit.js';

const USAGE = `
  quarry repos restrict NAME [--users a,b] [--roles R,...]
                                 only the listed users, holders of the listed roles and site
                                 admins may read NAME (with neither list: site admins only)
  quarry repos public NAME       lift the restriction: everyone may read NAME`;

// Every flag either command accepts, so the subcommand is found wherever flags appear.
const FLAGS = { ...DATA_FLAG, json: 'boolean', users: 'string', roles: 'string' } as const;

async function runPermissions(subcommand: 'restrict' | 'public', args: string[], io: CliIO): Promise<number> {
  const { flags, positionals } = parseFlags(args, { ...DATA_FLAG, ...(subcommand === 'restrict' ? { users: 'string', roles: 'string' } : {}) } as const);
  const rest = positionals.slice(1);
  expectArgs(`repos ${subcommand}`, rest, ['NAME']);
  const name = rest[0] ?? '';
  if (subcommand === 'public') {
    const wasRestricted = await withStore(flags.data, (store) => {
      if (getRepo(store, name) === undefined) throw createError('REPO_NOT_FOUND', `no such repository: ${name}`, { name });
      return makeRepoPublic(store, name);
    });
    io.out(wasRestricted ? `${name} is now public` : `${name} was already public`);
    return 0;
  }
  const { users, roles } = flags as { users?: string; roles?: string };
  const restriction = await withStore(flags.data, (store) =>
    restrictRepo(store, name, { users: splitList(users).map((u) => requireUserByName(store, u).id), roles: splitList(roles) }));
  const readers = [...splitList(users).map((u) => `user ${u}`), ...restriction.roles.map((r) => `role ${r}`)];
  io.out(`${name} is now restricted to ${readers.length === 0 ? 'site admins' : `site admins, ${readers.join(', ')}`}`);
  return 0;
}

/** Undefined when the arguments do not parse; the wrapped command then explains the problem. */
function findSubcommand(args: string[]): string | undefined {
  try {
    return parseFlags(args, FLAGS).positionals[0];
  } catch {
    return undefined;
  }
}

/** Adds our lines after the wrapped command's list of subcommands. */
function insertUsage(usage: string): string {
  const [head = '', list = '', ...tail] = usage.split('\n\n');
  return [head, `${list}${USAGE}`, ...tail].join('\n\n');
}

/** The `repos` command with `restrict` and `public` added. */
export function withRepoPermissions(repos: Command): Command {
  return {
    ...repos,
    usage: insertUsage(repos.usage),
    run: async (args, io) => {
      const subcommand = findSubcommand(args);
      if (subcommand === 'restrict' || subcommand === 'public') return runPermissions(subcommand, args, io);
      return repos.run(args, io);
    },
  };
}
