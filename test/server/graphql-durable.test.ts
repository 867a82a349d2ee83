/**
 * The GraphQL door waits for a mutation's writes to be committed before it answers, and answers 503
 * when they cannot be; a query does not wait, so a write of this server refused meanwhile (a
 * background sync's, on PostgreSQL a conflict with another server) is not its failure.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { withRepoAccess } from '../../src/auth/repo-access.js';
import { createError } from '../../src/errors.js';
import { createServerGraphQL } from '../../src/server/graphql.js';
import { createAccountService } from '../../src/store/account-service.js';
import { removeDir } from '../git/fixtures.js';
import { principalOf } from '../api/graphql/fixture.js';
import { createEngineFixture, type EngineFixture } from '../e2e/engine-fixture.js';

let fixture: EngineFixture;
before(async () => { fixture = await createEngineFixture({ pool: 'in-thread' }); });
after(async () => {
  await fixture.engine.close();
  removeDir(fixture.dataDir);
});

test('a query answers while a write of this server was refused; a mutation answers 503 with what happened', async () => {
  const { store } = fixture.engine;
  const accounts = createAccountService(store);
  const admin = accounts.createUser({ username: 'admin', email: 'admin@example.com' });
  accounts.setSiteAdmin(admin.id, true);
  const handler = createServerGraphQL(fixture.engine);
  const context = { principal: withRepoAccess(store, principalOf({ ...admin, siteAdmin: true })), signal: new AbortController().signal };
  // Fault injection: every write so far counts as refused, as when another server wrote a row first.
  store.root.committed = () => Promise.reject(createError('STORE_CONFLICT', 'another server changed the row first'));

  const query = await handler({ body: { query: '{ currentUser { username } }' } }, context);
  assert.equal(query.status, 200);
  assert.deepEqual(JSON.parse(query.body), { data: { currentUser: { username: 'admin' } } });

  const update = 'mutation ($id: Int!, $input: String!) { updateSiteConfiguration(lastID: $id, input: $input) }';
  const mutation = await handler({ body: { query: update, variables: { id: 0, input: '{"mcp.enabled": false}' } } }, context);
  assert.equal(mutation.status, 503);
  assert.match(JSON.parse(mutation.body).errors[0].message, /changed the same records at the same time; try again/);
});
