/**
 * The Settings pages in Debian's chromium against a real `quarry serve`: alice makes an access
 * token (shown once, then working on GraphQL) and revokes it (then refused), sees and revokes an
 * authorized application; an admin makes an OAuth application (its secret working at the token
 * endpoint), a user, makes them admin and back, assigns a role; alice gets 403 on admin pages; a
 * form posted without the page's CSRF token or from another origin changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../browser.js';
import { tokensFor } from './oauth-flow.js';
import { ALICE, FormBrowser, csrfOf, startOAuthQuarry, type OAuthFixture } from './oauth-fixture.js';
import { screenshot } from './screenshots.js';

const ROOT = { username: 'root', password: 'another long admin passphrase' } as const;

let quarry: OAuthFixture;
let browser: Browser;

before(async () => {
  quarry = await startOAuthQuarry();
  const made = quarry.quarry(['users', 'create', ROOT.username, '--site-admin', '--password-stdin'], `${ROOT.password}\n`);
  assert.equal(made.status, 0, made.stderr);
  assert.equal(quarry.quarry(['roles', 'create', 'auditors', '--permissions', 'MCP#ACCESS']).status, 0);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await quarry?.dispose();
});

async function signedIn(who: { username: string; password: string }, path: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${quarry.url}${path}`);
  assert.match(page.url(), /\/sign-in\?return_to=/);
  await page.fill('#username', who.username);
  await page.fill('#password', who.password);
  await page.click('main button[type=submit]');
  await page.waitForURL(`${quarry.url}${path}`);
  return { context, page };
}

async function graphqlUser(token: string): Promise<{ status: number; username: string | null }> {
  const response = await fetch(`${quarry.url}/.api/graphql`, {
    method: 'POST', headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ currentUser { username } }' }),
  });
  const body = await response.json().catch(() => null) as { data?: { currentUser: { username: string } | null } } | null;
  return { status: response.status, username: body?.data?.currentUser?.username ?? null };
}

describe('a person\'s own settings', () => {
  it('Access tokens: created with a note and scopes, shown once, works on GraphQL, then revoked', { timeout: 90_000 }, async () => {
    const { context, page } = await signedIn(ALICE, '/settings/tokens');
    await screenshot(page, 'settings-tokens-empty');
    assert.equal(await page.locator('input[value="site-admin:sudo"]').count(), 0, 'only admins are offered site-admin:sudo');
    await page.fill('#note', 'laptop <script>');
    await page.check('input[value=mcp]');
    await page.click('button:has-text("Create token")');
    const token = (await page.textContent('#new-token'))!.trim();
    assert.match(token, /^sgp_local_[0-9a-f]{40}$/);
    await screenshot(page, 'settings-tokens-created');
    assert.deepEqual(await graphqlUser(token), { status: 200, username: 'alice' });
    await page.goto(`${quarry.url}/settings/tokens`);
    const listed = (await page.textContent('main'))!;
    assert.ok(!listed.includes(token) && !listed.includes(token.slice(-40)), 'the token is never shown again');
    assert.match(listed, /laptop <script>/);
    assert.match(listed, /mcp, user:all/);
    assert.match(listed, /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/, 'last used is shown after the GraphQL call');
    await page.click('button:has-text("Revoke")');
    await page.waitForURL(`${quarry.url}/settings/tokens`);
    assert.match((await page.textContent('main'))!, /You have no access tokens/);
    assert.equal((await graphqlUser(token)).username, null, 'a revoked token authenticates no one');
    await context.close();
  });

  it('Authorized applications: an OAuth grant is listed and revoking it stops its token', { timeout: 90_000 }, async () => {
    const form = new FormBrowser(quarry.url);
    assert.equal((await form.signIn()).status, 303);
    const { access } = await tokensFor(quarry.url, form);
    const mcp = () => fetch(`${quarry.url}/.api/mcp`, {
      method: 'POST', headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    }).then((r) => r.status);
    assert.equal(await mcp(), 200);
    const { context, page } = await signedIn(ALICE, '/settings/applications');
    assert.match((await page.textContent('main'))!, /Security test/);
    await screenshot(page, 'settings-authorized-applications');
    await page.click('button:has-text("Revoke")');
    await page.waitForURL(`${quarry.url}/settings/applications`);
    assert.match((await page.textContent('main'))!, /No application holds access/);
    assert.equal(await mcp(), 401);
    await context.close();
  });

  it('admin pages answer 403 to a user who is not a site admin, and the menu hides them', { timeout: 60_000 }, async () => {
    const { context, page } = await signedIn(ALICE, '/settings');
    assert.equal(await page.locator('nav.settings a[href="/site-admin/users"]').count(), 0);
    for (const path of ['/site-admin/oauth-apps', '/site-admin/users', '/site-admin/roles']) {
      const answer = await page.goto(`${quarry.url}${path}`);
      assert.equal(answer?.status(), 403, path);
    }
    await screenshot(page, 'site-admin-forbidden');
    const form = new FormBrowser(quarry.url);
    await form.signIn();
    const csrf = csrfOf(await (await form.get('/settings/tokens')).text());
    const posted = await form.post('/site-admin/users', { csrf, username: 'mallory' });
    assert.equal(posted.status, 403);
    assert.ok(!quarry.quarry(['users', 'list']).stdout.includes('mallory'));
    await context.close();
  });

  it('a form without this session\'s CSRF token, or from another origin, is refused and changes nothing', { timeout: 60_000 }, async () => {
    const form = new FormBrowser(quarry.url);
    await form.signIn();
    const csrf = csrfOf(await (await form.get('/settings/tokens')).text());
    const before = quarry.quarry(['tokens', 'list', 'alice']).stdout;
    assert.equal((await form.post('/settings/tokens', { note: 'forged', scope: 'user:all' })).status, 403);
    assert.equal((await form.post('/settings/tokens', { csrf: csrf.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), note: 'forged', scope: 'user:all' })).status, 403);
    assert.equal((await form.post('/settings/tokens', { csrf, note: 'forged', scope: 'user:all' }, { origin: 'http://evil.example' })).status, 403);
    const other = new FormBrowser(quarry.url);
    await other.signIn();
    assert.equal((await other.post('/settings/tokens', { csrf, note: 'forged', scope: 'user:all' })).status, 403, 'another session\'s token is refused');
    assert.equal(quarry.quarry(['tokens', 'list', 'alice']).stdout, before);
    assert.equal((await form.post('/settings/tokens', { csrf, note: 'real', scope: 'user:all' })).status, 200, 'the page\'s own token works');
  });
});

describe('site admin pages', () => {
  it('OAuth applications: created confidential with user:all, the secret shown once works at the token endpoint; deleted', { timeout: 90_000 }, async () => {
    const { context, page } = await signedIn(ROOT, '/site-admin/oauth-apps');
    await page.fill('#name', 'Build bot');
    await page.fill('#redirect_uris', 'https://ci.example.com/callback\nhttp://127.0.0.1/cb');
    await page.click('button:has-text("Create application")');
    const clientId = (await page.textContent('#new-client-id'))!.trim();
    const secret = (await page.textContent('#new-client-secret'))!.trim();
    assert.match(clientId, /^sgo_cid_/);
    assert.match(secret, /^sgo_cs_/);
    await screenshot(page, 'site-admin-oauth-app-created');
    const device = await fetch(`${quarry.url}/.auth/idp/oauth/device/code`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
      body: 'scope=user:all',
    });
    assert.equal(device.status, 200, 'the shown secret authenticates the application');
    const wrong = await fetch(`${quarry.url}/.auth/idp/oauth/device/code`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:x${secret}`).toString('base64')}` }, body: 'scope=user:all',
    });
    assert.equal(wrong.status, 401);
    await page.goto(`${quarry.url}/site-admin/oauth-apps`);
    const listed = (await page.textContent('main'))!;
    assert.ok(listed.includes(clientId) && !listed.includes(secret), 'listed without its secret');
    await screenshot(page, 'site-admin-oauth-apps');
    await page.fill('#name', 'Bad one');
    await page.fill('#redirect_uris', 'http://ci.example.com/callback');
    await page.click('button:has-text("Create application")');
    assert.match((await page.textContent('.error'))!, /must use https/);
    await page.click(`tr:has-text("${clientId}") button:has-text("Delete")`);
    await page.waitForURL(`${quarry.url}/site-admin/oauth-apps`);
    assert.ok(!(await page.textContent('main'))!.includes(clientId));
    await context.close();
  });

  it('Users and Roles: create with a password (who can then sign in), make admin and back, assign and unassign a role, delete', { timeout: 90_000 }, async () => {
    const { context, page } = await signedIn(ROOT, '/site-admin/users');
    await page.fill('#username', 'bob');
    await page.fill('#email', 'bob@example.com');
    await page.fill('#password', 'bob has a long password');
    await page.click('button:has-text("Create user")');
    await page.waitForURL(`${quarry.url}/site-admin/users`);
    const bobRow = page.locator('tr:has-text("bob@example.com")');
    const adminCell = () => page.locator('tr:has-text("bob@example.com") td').nth(2).textContent();
    assert.equal(await adminCell(), 'no');
    assert.equal((await new FormBrowser(quarry.url).signIn('bob', 'bob has a long password')).status, 303, 'the new user signs in');
    await bobRow.locator('button:has-text("Make site admin")').click();
    await page.waitForURL(`${quarry.url}/site-admin/users`);
    assert.equal(await adminCell(), 'yes');
    await screenshot(page, 'site-admin-users');
    await page.locator('tr:has-text("bob@example.com") button:has-text("Revoke site admin")').click();
    await page.waitForURL(`${quarry.url}/site-admin/users`);
    assert.equal(await adminCell(), 'no');
    await page.goto(`${quarry.url}/site-admin/roles`);
    await page.selectOption('#user', { label: 'bob' });
    await page.selectOption('#role', 'auditors');
    await page.click('button[value=assign]');
    await page.waitForURL(`${quarry.url}/site-admin/roles`);
    assert.match((await page.locator('tr:has-text("auditors")').textContent())!, /bob/);
    assert.match(quarry.quarry(['roles', 'list']).stdout, /auditors/);
    await screenshot(page, 'site-admin-roles');
    await page.selectOption('#user', { label: 'bob' });
    await page.click('button[value=unassign]');
    await page.waitForURL(`${quarry.url}/site-admin/roles`);
    assert.doesNotMatch((await page.locator('tr:has-text("auditors")').textContent())!, /bob/);
    await page.goto(`${quarry.url}/site-admin/users`);
    await page.locator('tr:has-text("bob@example.com") button:has-text("Delete")').click();
    await page.waitForURL(`${quarry.url}/site-admin/users`);
    assert.equal(await page.locator('tr:has-text("bob@example.com")').count(), 0);
    assert.ok(!quarry.quarry(['users', 'list']).stdout.includes('bob'));
    await context.close();
  });
});
