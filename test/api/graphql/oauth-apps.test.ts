/**
 * OAuth applications through GraphQL: site admins list, create (secret once, stored only as its
 * hash so it authenticates the client) and delete them; everyone else is refused and changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { authenticateClient } from '../../../src/auth/oauth/client-auth.js';
import { createGraphQLFixture, type GraphQLFixture } from './fixture.js';

let fx: GraphQLFixture;
before(async () => { fx = await createGraphQLFixture({ repositories: false }); });
after(async () => { await fx.close(); });

const CREATE = `mutation($name: String!, $uris: [String!]!, $scopes: [String!]!, $confidential: Boolean!) {
  createOAuthApplication(name: $name, redirectURIs: $uris, scopes: $scopes, confidential: $confidential) {
    application { clientID name redirectURIs scopes confidential dynamic } clientSecret } }`;
const LIST = '{ oauthApplications { clientID name scopes confidential } }';

test('a site admin creates a confidential application: the secret is answered once and authenticates it', async () => {
  const { json } = await fx.post({ query: CREATE, variables: { name: 'CI', uris: ['https://ci.example.com/cb'], scopes: ['user:all', 'mcp'], confidential: true } }, fx.admin);
  const created = json.data.createOAuthApplication;
  assert.deepEqual(created.application, { clientID: created.application.clientID, name: 'CI', redirectURIs: ['https://ci.example.com/cb'], scopes: ['mcp', 'user:all'], confidential: true, dynamic: false });
  assert.match(created.clientSecret, /^sgo_cs_[0-9a-f]{64}$/);
  const store = fx.engine.engine.store;
  const form = new URLSearchParams({ client_id: created.application.clientID, client_secret: created.clientSecret });
  assert.equal(authenticateClient(store, undefined, form, true).ok, true);
  form.set('client_secret', `${created.clientSecret}0`);
  assert.equal(authenticateClient(store, undefined, form, true).ok, false);
  const listed = (await fx.post({ query: LIST }, fx.admin)).json.data.oauthApplications;
  assert.ok(listed.some((a: { clientID: string }) => a.clientID === created.application.clientID));
  assert.ok(!JSON.stringify(listed).includes(created.clientSecret));
  const deleted = await fx.post({ query: 'mutation($id: String!) { deleteOAuthApplication(clientID: $id) { alwaysNil } }', variables: { id: created.application.clientID } }, fx.admin);
  assert.deepEqual(deleted.json, { data: { deleteOAuthApplication: { alwaysNil: null } } });
  assert.equal(authenticateClient(store, undefined, new URLSearchParams({ client_id: created.application.clientID, client_secret: created.clientSecret }), true).ok, false);
});

test('a public application has no secret; bad redirect URIs and scopes are refused with what to change', async () => {
  const ok = await fx.post({ query: CREATE, variables: { name: 'Desktop', uris: ['com.example.app:/cb'], scopes: ['mcp'], confidential: false } }, fx.admin);
  assert.equal(ok.json.data.createOAuthApplication.clientSecret, null);
  const badUri = await fx.post({ query: CREATE, variables: { name: 'X', uris: ['http://example.com/cb'], scopes: ['mcp'], confidential: true } }, fx.admin);
  assert.match(badUri.json.errors[0].message, /must use https/);
  const badScope = await fx.post({ query: CREATE, variables: { name: 'X', uris: [], scopes: ['site-admin:sudo'], confidential: true } }, fx.admin);
  assert.match(badScope.json.errors[0].message, /scopes must be user:all and\/or mcp \(not "site-admin:sudo"\)/);
});

test('a user who is not a site admin can neither list, create nor delete applications', async () => {
  const before = (await fx.post({ query: LIST }, fx.admin)).json.data.oauthApplications.length;
  assert.deepEqual((await fx.post({ query: LIST })).json.errors.map((e: { message: string }) => e.message), ['must be site admin']);
  const made = await fx.post({ query: CREATE, variables: { name: 'Sneaky', uris: [], scopes: ['user:all'], confidential: true } });
  assert.equal(made.json.errors[0].message, 'must be site admin');
  const first = (await fx.post({ query: LIST }, fx.admin)).json.data.oauthApplications[0].clientID;
  const deleted = await fx.post({ query: 'mutation($id: String!) { deleteOAuthApplication(clientID: $id) { alwaysNil } }', variables: { id: first } });
  assert.equal(deleted.json.errors[0].message, 'must be site admin');
  assert.equal((await fx.post({ query: LIST }, fx.admin)).json.data.oauthApplications.length, before);
});
