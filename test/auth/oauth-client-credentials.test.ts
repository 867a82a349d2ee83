/**
 * The client_credentials grant against a real store: an admin's confidential application bound to
 * a service account gets a short access token (no refresh token) that authenticates as that
 * account on its audience; a wrong secret, Basic and form credentials mixed, a public client, or an
 * application without a service account are refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAuthenticator } from '../../src/auth/authenticate.js';
import { authorize } from '../../src/auth/authorize.js';
import { createIdentityProvider, type IdentityProvider } from '../../src/auth/oauth/service.js';
import { createOAuthClient } from '../../src/store/oauth-clients.js';
import type { Store } from '../../src/store/records.js';
import { createRole, assignRole } from '../../src/store/roles.js';
import { createUser } from '../../src/store/users.js';
import { useTempStore } from '../store/temp-store.js';

const ORIGIN = 'http://127.0.0.1:7080';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe('client_credentials', () => {
  let store: Store;
  let idp: IdentityProvider;
  let app: { id: string; secret: string };
  let publicApp: string;
  useTempStore((opened) => {
    store = opened;
    idp = createIdentityProvider(store);
    const robot = createUser(store, { username: 'ci-robot', serviceAccount: true });
    createRole(store, 'agents', ['MCP#ACCESS']);
    assignRole(store, robot.id, 'agents');
    const base = { name: 'CI', redirectUris: [], scopes: ['mcp'], grantTypes: ['client_credentials'], dynamic: false, metadata: {} } as const;
    const made = createOAuthClient(store, { ...base, tokenEndpointAuthMethod: 'client_secret_basic', serviceAccountId: robot.id, confidential: true });
    app = { id: made.client.id, secret: made.secret! };
    publicApp = createOAuthClient(store, { ...base, tokenEndpointAuthMethod: 'none', serviceAccountId: robot.id, confidential: false }).client.id;
  });

  it('issues an access token for the service account, without a refresh token', () => {
    const result = idp.token(basic(app.id, app.secret), form({ grant_type: 'client_credentials', resource: `${ORIGIN}/.api/mcp` }), ORIGIN);
    assert.ok(result.ok, result.ok ? '' : result.failure.description);
    assert.equal(result.value.refresh_token, undefined);
    assert.equal(result.value.scope, 'mcp');
    assert.equal(result.value.expires_in, 3600);
    const auth = createAuthenticator(store)({ headers: { authorization: `Bearer ${result.value.access_token}` } });
    assert.ok(auth.ok);
    assert.equal(auth.principal.username, 'ci-robot');
    assert.equal(auth.principal.audience, '/.api/mcp');
    assert.ok(auth.principal.tokenId! < 0, 'an OAuth grant\'s id never names an access token');
    const site = () => ({ public: false });
    assert.ok(authorize(auth, 'mcp', site).ok);
    assert.ok(!authorize(auth, 'graphql', site).ok, 'scope mcp and audience /.api/mcp: not GraphQL');
  });

  it('refuses a wrong secret, mixed credentials, a public client and a scope it may not have', () => {
    const refused = (authorization: string | undefined, fields: Record<string, string>) => {
      const result = idp.token(authorization, form({ grant_type: 'client_credentials', ...fields }), ORIGIN);
      assert.ok(!result.ok);
      return [result.failure.status, result.failure.error];
    };
    assert.deepEqual(refused(basic(app.id, `${app.secret}x`), {}), [401, 'invalid_client']);
    assert.deepEqual(refused(undefined, { client_id: app.id }), [401, 'invalid_client']);
    assert.deepEqual(refused(basic(app.id, app.secret), { client_secret: app.secret }), [400, 'invalid_request']);
    assert.deepEqual(refused(undefined, { client_id: publicApp }), [400, 'unauthorized_client']);
    assert.deepEqual(refused(basic(app.id, app.secret), { scope: 'user:all' }), [400, 'invalid_scope']);
    assert.deepEqual(refused(basic(app.id, app.secret), { resource: 'https://elsewhere.example/.api/mcp' }), [400, 'invalid_target']);
    const form2 = idp.token(undefined, form({ grant_type: 'client_credentials', client_id: app.id, client_secret: app.secret }), ORIGIN);
    assert.ok(form2.ok, 'client_secret_post works too');
  });
});
