/**
 * Users, tokens, roles and site configuration through GraphQL: who may read and change what,
 * with Sourcegraph's refusal strings, against the in-test account and config services.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ANONYMOUS } from '../../../src/auth/principal.js';
import { encodeId } from '../../../src/api/graphql/ids.js';
import { createGraphQLFixture, type GraphQLFixture } from './fixture.js';

let fx: GraphQLFixture;
before(async () => { fx = await createGraphQLFixture({ repositories: false }); });
after(async () => { await fx.close(); });

const ADMIN_ONLY = { message: 'must be site admin' };

test('currentUser is the caller, and null when anonymous', async () => {
  const query = '{ currentUser { id username databaseID siteAdmin url } }';
  assert.deepEqual((await fx.post({ query })).json, {
    data: { currentUser: { id: encodeId('User', fx.alice.userId!), username: 'alice', databaseID: fx.alice.userId, siteAdmin: false, url: '/users/alice' } },
  });
  assert.deepEqual((await fx.post({ query }, ANONYMOUS)).json, { data: { currentUser: null } });
});

test("another user's siteAdmin and email need that user or a site admin", async () => {
  const query = '{ user(username: "admin") { username siteAdmin } }';
  const { json } = await fx.post({ query });
  assert.deepEqual(json.data, { user: null });
  assert.deepEqual(json.errors, [{ message: 'must be authenticated as the authorized user or site admin', locations: [{ line: 1, column: 38 }], path: ['user', 'siteAdmin'] }]);
  assert.deepEqual((await fx.post({ query }, fx.admin)).json, { data: { user: { username: 'admin', siteAdmin: true } } });
});

test('users lists with cursors for site admins only', async () => {
  const query = '{ users(first: 1) { nodes { username } totalCount pageInfo { hasNextPage endCursor } } }';
  const refused = (await fx.post({ query })).json;
  assert.deepEqual(refused.data, null);
  assert.deepEqual({ message: refused.errors[0].message }, ADMIN_ONLY);
  assert.deepEqual(refused.errors[0].path, ['users']);
  const first = (await fx.post({ query }, fx.admin)).json.data.users;
  assert.deepEqual(first.nodes, [{ username: 'admin' }]);
  assert.equal(first.pageInfo.hasNextPage, true);
  const next = (await fx.post({ query: 'query ($a: String) { users(first: 5, after: $a) { nodes { username } pageInfo { hasNextPage } } }', variables: { a: first.pageInfo.endCursor } }, fx.admin)).json.data.users;
  assert.deepEqual(next.nodes.map((n: any) => n.username), ['alice']);
  assert.equal(next.pageInfo.hasNextPage, false);
});

test('createUser, setUserIsSiteAdmin and deleteUser are site-admin mutations', async () => {
  const create = 'mutation { createUser(username: "bob", email: "bob@example.com") { user { id username } resetPasswordURL } }';
  assert.deepEqual((await fx.post({ query: create })).json.errors.map((e: any) => e.message), [ADMIN_ONLY.message]);
  const created = (await fx.post({ query: create }, fx.admin)).json.data.createUser;
  assert.equal(created.user.username, 'bob');
  const bobId = created.user.id;
  const promote = `mutation { setUserIsSiteAdmin(userID: "${bobId}", siteAdmin: true) { alwaysNil } }`;
  assert.deepEqual((await fx.post({ query: promote }, fx.admin)).json, { data: { setUserIsSiteAdmin: { alwaysNil: null } } });
  assert.equal(fx.accounts.getUserByUsername('bob')!.siteAdmin, true);
  const selfDemote = `mutation { setUserIsSiteAdmin(userID: "${encodeId('User', fx.admin.userId!)}", siteAdmin: false) { alwaysNil } }`;
  assert.equal((await fx.post({ query: selfDemote }, fx.admin)).json.errors[0].extensions.code, 'INVALID_ARGUMENT');
  assert.deepEqual((await fx.post({ query: `mutation { deleteUser(user: "${bobId}") { alwaysNil } }` }, fx.admin)).json, { data: { deleteUser: { alwaysNil: null } } });
  assert.equal(fx.accounts.getUserByUsername('bob'), null);
});

test('access tokens: own tokens, no sudo scope without admin, never for someone else', async () => {
  const aliceId = encodeId('User', fx.alice.userId!);
  const own = (await fx.post({ query: `mutation { createAccessToken(user: "${aliceId}", scopes: ["user:all"], note: "cli") { id token } }` })).json;
  assert.match(own.data.createAccessToken.token, /^sgp_/);
  const sudo = (await fx.post({ query: `mutation { createAccessToken(user: "${aliceId}", scopes: ["site-admin:sudo"], note: "x") { id } }` })).json;
  assert.equal(sudo.errors[0].message, 'must be site admin');
  const forAdmin = (await fx.post({ query: `mutation { createAccessToken(user: "${encodeId('User', fx.admin.userId!)}", scopes: ["user:all"], note: "x") { id } }` })).json;
  assert.equal(forAdmin.errors[0].message, 'must be authenticated as the authorized user or site admin');
  const badScope = (await fx.post({ query: `mutation { createAccessToken(user: "${aliceId}", scopes: ["root"], note: "x") { id } }` })).json;
  assert.equal(badScope.errors[0].extensions.code, 'INVALID_ARGUMENT');
  const list = (await fx.post({ query: '{ currentUser { accessTokens { totalCount nodes { id note scopes } } } }' })).json.data.currentUser.accessTokens;
  assert.deepEqual(list, { totalCount: 1, nodes: [{ id: own.data.createAccessToken.id, note: 'cli', scopes: ['user:all'] }] });
  const deleted = (await fx.post({ query: `mutation { deleteAccessToken(byToken: "${own.data.createAccessToken.token}") { alwaysNil } }` })).json;
  assert.deepEqual(deleted, { data: { deleteAccessToken: { alwaysNil: null } } });
  assert.equal(fx.accounts.listAccessTokens(fx.alice.userId!).length, 0);
});

test('roles: create, assign, remove and delete custom roles; system roles are fixed', async () => {
  const unknown = (await fx.post({ query: 'mutation { createRole(name: "AUDITOR", permissions: ["AUDIT#READ"]) { id } }' }, fx.admin)).json;
  assert.equal(unknown.errors[0].extensions.code, 'INVALID_ARGUMENT');
  const created = (await fx.post({ query: 'mutation { createRole(name: "AUDITOR", permissions: ["MCP#ACCESS"]) { id name system permissions } }' }, fx.admin)).json.data.createRole;
  assert.deepEqual(created, { id: encodeId('Role', 'AUDITOR'), name: 'AUDITOR', system: false, permissions: ['MCP#ACCESS'] });
  const aliceId = encodeId('User', fx.alice.userId!);
  const assign = `mutation { assignRoleToUser(user: "${aliceId}", role: "${created.id}") { alwaysNil } }`;
  assert.deepEqual((await fx.post({ query: assign })).json.errors.map((e: any) => e.message), ['must be site admin']);
  await fx.post({ query: assign }, fx.admin);
  const mine = (await fx.post({ query: '{ currentUser { roles { nodes { name } } permissions } }' })).json.data.currentUser;
  assert.deepEqual(mine.roles.nodes.map((r: any) => r.name).sort(), ['AUDITOR', 'USER']);
  assert.deepEqual([...mine.permissions].sort(), ['MCP#ACCESS']);
  await fx.post({ query: `mutation { removeRoleFromUser(user: "${aliceId}", role: "${created.id}") { alwaysNil } }` }, fx.admin);
  assert.deepEqual(fx.accounts.getUser(fx.alice.userId!)!.roles, ['USER']);
  const system = (await fx.post({ query: `mutation { deleteRole(role: "${encodeId('Role', 'USER')}") { alwaysNil } }` }, fx.admin)).json;
  assert.equal(system.errors[0].extensions.code, 'INVALID_ARGUMENT');
  await fx.post({ query: `mutation { deleteRole(role: "${created.id}") { alwaysNil } }` }, fx.admin);
  const roles = (await fx.post({ query: '{ roles { nodes { name system } } }' }, fx.admin)).json.data.roles.nodes as { name: string }[];
  assert.deepEqual(roles.sort((a, b) => a.name.localeCompare(b.name)), [{ name: 'SITE_ADMINISTRATOR', system: true }, { name: 'USER', system: true }]);
});

test('site configuration is visible and editable by site admins only; stale writes are refused', async () => {
  const read = '{ site { siteID productVersion configuration { id effectiveContents validationMessages } } }';
  const refused = (await fx.post({ query: read })).json;
  assert.equal(refused.errors[0].message, 'must be site admin');
  assert.deepEqual(refused.errors[0].path, ['site', 'configuration']);
  const config = (await fx.post({ query: read }, fx.admin)).json.data.site.configuration;
  assert.deepEqual(config, { id: 0, effectiveContents: fx.services.config.get().contents, validationMessages: [] });
  const update = 'mutation ($id: Int!, $input: String!) { updateSiteConfiguration(lastID: $id, input: $input) }';
  assert.equal((await fx.post({ query: update, variables: { id: 0, input: '{}' } })).json.errors[0].message, 'must be site admin');
  assert.deepEqual((await fx.post({ query: update, variables: { id: 0, input: '{"mcp.enabled": false}' } }, fx.admin)).json, { data: { updateSiteConfiguration: false } });
  const stale = (await fx.post({ query: update, variables: { id: 0, input: '{"mcp.enabled": true}' } }, fx.admin)).json;
  assert.deepEqual(stale.data, null);
  assert.equal(stale.errors[0].extensions.code, 'CONFIG_STALE');
  const invalid = (await fx.post({ query: update, variables: { id: 1, input: '{"no.such.setting": 1}' } }, fx.admin)).json;
  assert.equal(invalid.errors[0].extensions.code, 'CONFIG_INVALID');
  assert.equal(fx.services.config.get().contents, '{"mcp.enabled": false}');
});

test('a malformed id and an unknown user answer with their error codes', async () => {
  const bad = (await fx.post({ query: 'mutation { deleteUser(user: "bm9wZQ==") { alwaysNil } }' }, fx.admin)).json;
  assert.equal(bad.errors[0].extensions.code, 'INVALID_ARGUMENT');
  const unknown = (await fx.post({ query: `mutation { deleteUser(user: "${encodeId('User', 999)}") { alwaysNil } }` }, fx.admin)).json;
  assert.deepEqual(unknown.errors[0].extensions, { code: 'USER_NOT_FOUND' });
});
