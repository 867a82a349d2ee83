/** The store generation: bumped by every auth- or settings-relevant write, and the caches keyed by it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { byGeneration, storeGeneration } from '../../src/store/generation.js';
import type { Store } from '../../src/store/records.js';
import { restrictRepo } from '../../src/store/repo-permissions.js';
import { assignRole, createRole } from '../../src/store/roles.js';
import { addRepo } from '../../src/store/repos.js';
import { getSiteConfig, updateSiteConfig } from '../../src/store/site-config.js';
import { createAccessToken, revokeAccessToken, touchAccessToken } from '../../src/store/tokens.js';
import { createUser, setSiteAdmin } from '../../src/store/users.js';
import { useTempStore } from './temp-store.js';

let store: Store;

useTempStore((opened) => {
  store = opened;
});

test('every change authentication, authorization or settings depend on moves the generation', () => {
  const changes: [string, () => unknown][] = [
    ['create user', () => createUser(store, { username: 'g1' })],
    ['site admin', () => setSiteAdmin(store, createUser(store, { username: 'g2' }).id, true)],
    ['create token', () => createAccessToken(store, { userId: 1, creatorId: 1, scopes: ['user:all'], note: '' })],
    ['revoke token', () => revokeAccessToken(store, createAccessToken(store, { userId: 1, creatorId: 1, scopes: ['user:all'], note: '' }).id)],
    ['create role', () => createRole(store, 'gen-role', ['MCP#ACCESS'])],
    ['assign role', () => assignRole(store, 1, 'gen-role')],
    ['restrict repo', () => {
      addRepo(store, { id: 9, name: 'example.com/gen', source: '/x', mirrorPath: 'mirrors/9.git', addedAt: '', lastFetchedAt: null, defaultBranch: 'main', fork: false, archived: false });
      restrictRepo(store, 'example.com/gen', { users: [], roles: [] });
    }],
    ['site configuration', () => updateSiteConfig(store, getSiteConfig(store).id, '{"mcp.enabled": false}')],
  ];
  for (const [name, change] of changes) {
    const before = storeGeneration(store);
    change();
    assert.ok(storeGeneration(store) > before, name);
  }
});

test('recording a token use does not move it, and byGeneration recomputes only after a move', () => {
  const token = createAccessToken(store, { userId: 1, creatorId: 1, scopes: ['user:all'], note: '' });
  const before = storeGeneration(store);
  touchAccessToken(store, token.id, Date.now() + 3_600_000);
  assert.equal(storeGeneration(store), before);
  let computed = 0;
  const cached = byGeneration(store, () => ++computed);
  assert.equal(cached(), 1);
  assert.equal(cached(), 1);
  createUser(store, { username: 'g3' });
  assert.equal(cached(), 2);
});
