/**
 * `quarry oauth-apps`: create prints the client id and, for a confidential application, its secret
 * once (the store holds only a hash that the secret matches); list never shows a secret; bad
 * redirect URIs and scopes are refused with what to change; delete removes it.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { clientSecretMatches, getOAuthClient } from '../../src/store/oauth-clients.js';
import { openStore } from '../../src/store/open.js';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { runCli } from './capture.js';

describe('quarry oauth-apps', () => {
  let root = '';
  let data = '';
  before(() => {
    root = makeTempDir();
    data = join(root, 'data');
  });
  after(() => removeDir(root));
  const cli = (...args: string[]) => runCli([...args, '--data', data]);

  it('creates a confidential application whose secret, printed once, matches the stored hash', async () => {
    const run = await cli('oauth-apps', 'create', 'Build bot', '--redirect-uris', 'https://ci.example.com/cb,http://127.0.0.1/cb', '--scopes', 'user:all,mcp');
    assert.equal(run.code, 0, run.stderr.join('\n'));
    const [clientId, secret] = run.stdout;
    assert.match(clientId!, /^sgo_cid_[0-9a-f]{32}$/);
    assert.match(secret!, /^sgo_cs_[0-9a-f]{64}$/);
    const store = openStore(data);
    try {
      const client = getOAuthClient(store, clientId!)!;
      assert.deepEqual([client.name, client.scopes, client.redirectUris, client.dynamic], ['Build bot', ['mcp', 'user:all'], ['https://ci.example.com/cb', 'http://127.0.0.1/cb'], false]);
      assert.ok(!JSON.stringify(client).includes(secret!), 'the store holds no plain secret');
      assert.equal(clientSecretMatches(client, secret!), true);
      assert.equal(clientSecretMatches(client, `${secret!}x`), false);
    } finally {
      await store.close();
    }
    const list = await cli('oauth-apps', 'list', '--json');
    const apps = JSON.parse(list.stdout.join('\n')) as { clientId: string; confidential: boolean }[];
    assert.deepEqual(apps.map((a) => [a.clientId, a.confidential]), [[clientId, true]]);
    assert.ok(!list.stdout.join('\n').includes(secret!));
    const table = await cli('oauth-apps', 'list');
    assert.match(table.stdout.join('\n'), /Build bot\s+confidential\s+mcp,user:all/);
    assert.deepEqual(await cli('oauth-apps', 'delete', clientId!), { code: 0, stdout: [`deleted OAuth application "Build bot" (${clientId})`], stderr: [] });
    assert.deepEqual(JSON.parse((await cli('oauth-apps', 'list', '--json')).stdout.join('\n')), []);
  });

  it('a public application prints no secret; device-flow only without redirect URIs', async () => {
    const run = await cli('oauth-apps', 'create', 'Laptop tool', '--public');
    assert.equal(run.code, 0);
    assert.equal(run.stdout.length, 1);
    const store = openStore(data);
    try {
      const client = getOAuthClient(store, run.stdout[0]!)!;
      assert.equal(client.secretHash, null);
      assert.deepEqual(client.grantTypes, ['refresh_token', 'urn:ietf:params:oauth:grant-type:device_code']);
    } finally {
      await store.close();
    }
  });

  it('refuses bad input with what to change, and changes nothing', async () => {
    const before = (await cli('oauth-apps', 'list', '--json')).stdout.join('\n');
    const http = await cli('oauth-apps', 'create', 'X', '--redirect-uris', 'http://ci.example.com/cb');
    assert.notEqual(http.code, 0);
    assert.match(http.stderr.join('\n'), /must use https/);
    const scope = await cli('oauth-apps', 'create', 'X', '--scopes', 'site-admin:sudo');
    assert.match(scope.stderr.join('\n'), /scopes must be user:all and\/or mcp/);
    const missing = await cli('oauth-apps', 'delete', 'sgo_cid_nope');
    assert.match(missing.stderr.join('\n'), /no OAuth application with client id sgo_cid_nope/);
    assert.match((await cli('oauth-apps', 'list', '--public')).stderr.join('\n'), /apply only to create/);
    assert.equal((await cli('oauth-apps', 'list', '--json')).stdout.join('\n'), before);
  });
});
