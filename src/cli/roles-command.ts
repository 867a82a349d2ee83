/**
 * `quarry roles list|create|set|delete|assign|unassign`: roles, their permissions and who holds them.
 */

import { assignRole, createRole, KNOWN_PERMISSIONS, listRoles, removeRole, setRolePermissions } from '../store/roles.js';
import { deleteRole } from '../store/deletions.js';
import { formatTable, parseFlags, usageError, type CliIO, type Command } from './command.js';
import { DATA_FLAG } from './data-dir.js';
import { expectArgs, requireUserByName, splitList, withStore } from './store-command-kit.js';

const SUBCOMMANDS = 'list, create, set, delete, assign or unassign';

const USAGE = `usage: quarry roles <subcommand> [--data DIR]

  quarry roles list [--json]
  quarry roles create NAME --permissions P,...
  quarry roles set NAME --permissions P,...   (USER too: e.g. withdraw MCP#ACCESS from every user)
  quarry roles delete NAME
  quarry roles assign USER ROLE
  quarry roles unassign USER ROLE

Every user holds USER; site admins hold SITE_ADMINISTRATOR. Neither can be assigned,
unassigned or deleted. Known permissions: ${KNOWN_PERMISSIONS.join(', ')}.
DIR defaults to $QUARRY_DATA, else ./data.`;

const FLAGS = { ...DATA_FLAG, json: 'boolean', permissions: 'string' } as const;

async function runRoles(args: string[], io: CliIO): Promise<number> {
  const { flags, positionals } = parseFlags(args, FLAGS);
  const [subcommand, ...rest] = positionals;
  if (flags.json === true && subcommand !== undefined && subcommand !== 'list') throw usageError(`roles ${subcommand}: --json applies only to list`);
  if (flags.permissions !== undefined && subcommand !== 'create' && subcommand !== 'set') throw usageError(`roles ${subcommand ?? ''}: --permissions applies only to create and set`);
  switch (subcommand) {
    case 'list': {
      expectArgs('roles list', rest, []);
      const roles = await withStore(flags.data, listRoles);
      if (flags.json === true) io.out(JSON.stringify(roles, null, 2));
      else formatTable([['NAME', 'SYSTEM', 'PERMISSIONS'], ...roles.map((r) => [r.name, r.system ? 'yes' : 'no', r.permissions.join(',')])]).forEach((l) => io.out(l));
      return 0;
    }
    case 'create': {
      expectArgs('roles create', rest, ['NAME']);
      if (flags.permissions === undefined) throw usageError('roles create: missing --permissions (use --permissions "" for none)');
      const permissions = splitList(flags.permissions);
      const role = await withStore(flags.data, (store) => createRole(store, rest[0] ?? '', permissions));
      io.out(`created role ${role.name} (${role.permissions.join(', ') || 'no permissions'})`);
      return 0;
    }
    case 'set': {
      expectArgs('roles set', rest, ['NAME']);
      if (flags.permissions === undefined) throw usageError('roles set: missing --permissions (use --permissions "" for none)');
      const permissions = splitList(flags.permissions);
      const role = await withStore(flags.data, (store) => setRolePermissions(store, rest[0] ?? '', permissions));
      io.out(`role ${role.name} now has ${role.permissions.join(', ') || 'no permissions'}`);
      return 0;
    }
    case 'delete': {
      expectArgs('roles delete', rest, ['NAME']);
      const role = await withStore(flags.data, (store) => deleteRole(store, rest[0] ?? ''));
      io.out(`deleted role ${role.name}`);
      return 0;
    }
    case 'assign':
    case 'unassign': {
      expectArgs(`roles ${subcommand}`, rest, ['USER', 'ROLE']);
      const [username = '', role = ''] = rest;
      await withStore(flags.data, (store) => {
        const user = requireUserByName(store, username);
        if (subcommand === 'assign') assignRole(store, user.id, role);
        else removeRole(store, user.id, role);
      });
      io.out(subcommand === 'assign' ? `assigned ${role} to ${username}` : `removed ${role} from ${username}`);
      return 0;
    }
    case undefined:
      throw usageError(`roles: missing subcommand (${SUBCOMMANDS})`);
    default:
      throw usageError(`roles: unknown subcommand "${subcommand}" (${SUBCOMMANDS})`);
  }
}

export const rolesCommand: Command = {
  name: 'roles',
  summary: 'list, create and delete roles; assign them to users',
  usage: USAGE,
  run: runRoles,
};
