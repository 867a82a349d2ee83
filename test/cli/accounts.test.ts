import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createAuthenticator } from '../../src/auth/authenticate.js';
import { openStore } from '../../src/store/open.js';
import { verifyPassword } from '../../src/store/users.js';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { runCli } from './capture.js';

const BIN = fileURLToPath(new URL('../../../bin/quarry.js', import.meta.url));

describe('quarry users, tokens and roles', () => {
  let root = '';
  let data = '';
  before(() => {
    root = makeTempDir();
    data = join(root, 'data');
  });
  after(() => removeDir(root));

  const cli = (...args: string[]) => runCli([...args, '--data', data]);
  const json = async <T>(...args: string[]): Promise<T> => {
    const run = await cli(...args, '--json');
    assert.equal(run.code, 0, run.stderr.join('\n'));
    return JSON.parse(run.stdout.join('\n')) as T;
  };
  const authenticate = async (token: string) => {
    const store = openStore(data);
    try {
      return createAuthenticator(store)({ headers: { authorization: `token ${token}` } });
    } finally {
      await store.close();
    }
  };

  it('creates and lists users, never showing password hashes', async () => {
    assert.deepEqual(await cli('users', 'create', 'root', '--site-admin', '--email', 'root@example.com'),
      { code: 0, stdout: ['created user root (id 1, site admin)'], stderr: [] });
    assert.equal((await cli('users', 'create', 'bot', '--service-account', '--display-name', 'The Bot')).stdout[0], 'created user bot (id 2, service account)');
    const piped = spawnSync(process.execPath, [BIN, 'users', 'create', 'dev', '--password-stdin', '--data', data], { input: 's3cret\n', encoding: 'utf8' });
    assert.equal(piped.status, 0, piped.stderr);
    const store = openStore(data);
    try {
      assert.equal((await verifyPassword(store, 'dev', 's3cret'))?.username, 'dev');
    } finally {
      await store.close();
    }
    const table = await cli('users', 'list');
    assert.match(table.stdout[0] ?? '', /^ID\s+USERNAME\s+DISPLAY NAME\s+EMAIL\s+SITE ADMIN\s+SERVICE ACCOUNT\s+CREATED$/);
    assert.match(table.stdout[2] ?? '', /^2\s+bot\s+The Bot\s+no\s+yes\s+\d{4}-/);
    const users = await json<Record<string, unknown>[]>('users', 'list');
    assert.deepEqual(users.map((u) => [u['username'], u['hasPassword'], 'passwordHash' in u]), [['root', false, false], ['bot', false, false], ['dev', true, false]]);
  });

  it('creates a token printed once, lists tokens without it, and revokes it', async () => {
    const created = await cli('tokens', 'create', 'dev', '--scopes', 'user:all,mcp', '--note', 'ci');
    assert.equal(created.code, 0);
    assert.deepEqual(created.stderr, ['created token 1 for dev; it is shown only now:']);
    const token = created.stdout[0] ?? '';
    assert.match(token, /^sgp_local_[0-9a-f]{40}$/);
    assert.equal((await authenticate(token)).ok, true);

    const listed = await cli('tokens', 'list', 'dev');
    assert.ok(!listed.stdout.join('\n').includes(token.slice(10)));
    assert.match(listed.stdout[1] ?? '', /^1\s+dev\s+mcp,user:all\s+ci\s+\d{4}-\S+\s+\d{4}-\S+\s+active$/);
    const [record] = await json<Record<string, unknown>[]>('tokens', 'list');
    assert.deepEqual(Object.keys(record ?? {}).sort(), ['createdAt', 'creatorId', 'id', 'lastUsedAt', 'note', 'revoked', 'scopes', 'userId']);

    assert.deepEqual(await cli('tokens', 'revoke', '1'), { code: 0, stdout: ['revoked token 1'], stderr: [] });
    assert.deepEqual((await authenticate(token)), { ok: false, failure: { status: 401, message: 'Invalid access token.' }, via: 'header', scrapeToken: false });
    assert.match((await cli('tokens', 'list')).stdout[1] ?? '', /revoked$/);
  });

  it('refuses bad token requests', async () => {
    const cases: [string[], number, string][] = [
      [['tokens', 'create', 'dev', '--scopes', 'site-admin:sudo'], 1, 'quarry: only a site admin may create a site-admin:sudo token, and only for a site admin'],
      [['tokens', 'create', 'dev', '--scopes', 'repo'], 1, 'quarry: unknown scope "repo" (valid: user:all, mcp, site-admin:sudo)'],
      [['tokens', 'create', 'ghost'], 1, 'quarry: no such user: ghost'],
      [['tokens', 'revoke', 'x'], 2, 'quarry: tokens revoke: "x" is not a token id'],
      [['tokens', 'revoke', '99'], 1, 'quarry: no access token with id 99'],
      [['tokens', 'list', '--note', 'x'], 2, 'quarry: tokens list: --scopes and --note apply only to create'],
      [['users', 'create', 'root'], 1, 'quarry: a user named "root" already exists'],
      [['users', 'create', 'bad name'], 1, 'quarry: invalid username "bad name": letters, digits, ".", "_" and "-", starting and ending with a letter or digit, at most 255 characters'],
      [['users', 'delete'], 2, 'quarry: users delete: missing NAME'],
      [['users'], 2, 'quarry: users: missing subcommand (create, list or delete)'],
      [['roles', 'assign', 'dev', 'USER'], 1, 'quarry: USER is a system role and cannot be assigned, removed or deleted'],
      [['roles', 'create', 'x'], 2, 'quarry: roles create: missing --permissions (use --permissions "" for none)'],
    ];
    for (const [args, code, message] of cases) {
      const run = await cli(...args);
      assert.deepEqual([run.code, run.stderr], [code, [message]], args.join(' '));
    }
    const sudo = await cli('tokens', 'create', 'root', '--scopes', 'user:all,site-admin:sudo');
    assert.equal(sudo.code, 0);
  });

  it('manages roles and their assignments', async () => {
    assert.equal((await cli('roles', 'create', 'agents', '--permissions', 'MCP#ACCESS')).stdout[0], 'created role agents (MCP#ACCESS)');
    assert.equal((await cli('roles', 'assign', 'dev', 'agents')).stdout[0], 'assigned agents to dev');
    const token = (await cli('tokens', 'create', 'dev')).stdout[0] ?? '';
    const result = await authenticate(token);
    assert.deepEqual(result.ok && result.principal.roles, ['USER', 'agents']);
    assert.deepEqual((await cli('roles', 'list')).stdout, [
      'NAME                SYSTEM  PERMISSIONS', 'USER                yes     MCP#ACCESS', 'SITE_ADMINISTRATOR  yes     MCP#ACCESS', 'agents              no      MCP#ACCESS',
    ]);
    assert.equal((await cli('roles', 'set', 'USER', '--permissions', '')).stdout[0], 'role USER now has no permissions');
    const withoutUserGrant = await authenticate(token);
    assert.deepEqual(withoutUserGrant.ok && withoutUserGrant.principal.permissions, ['MCP#ACCESS'], 'still granted through agents');
    assert.equal((await cli('roles', 'set', 'USER', '--permissions', 'MCP#ACCESS')).stdout[0], 'role USER now has MCP#ACCESS');
    assert.equal((await cli('roles', 'set', 'SITE_ADMINISTRATOR', '--permissions', '')).stderr[0], 'quarry: SITE_ADMINISTRATOR always has every permission and cannot be edited');
    assert.equal((await cli('roles', 'unassign', 'dev', 'agents')).stdout[0], 'removed agents from dev');
    assert.equal((await cli('roles', 'delete', 'agents')).stdout[0], 'deleted role agents');
    assert.deepEqual((await json<{ name: string }[]>('roles', 'list')).map((r) => r.name), ['USER', 'SITE_ADMINISTRATOR']);
  });

  it('deletes a user with its tokens', async () => {
    const token = (await cli('tokens', 'create', 'bot', '--scopes', 'mcp')).stdout[0] ?? '';
    assert.deepEqual(await cli('users', 'delete', 'BOT'), { code: 0, stdout: ['deleted user bot'], stderr: [] });
    assert.equal((await authenticate(token)).ok, false);
    assert.equal((await cli('users', 'delete', 'bot')).stderr[0], 'quarry: no such user: bot');
  });

  it('prints help for every command', async () => {
    for (const name of ['users', 'tokens', 'roles', 'config']) {
      const run = await runCli([name, '--help']);
      assert.equal(run.code, 0);
      assert.match(run.stdout[0] ?? '', new RegExp(`^usage: quarry ${name} `));
    }
  });
});
