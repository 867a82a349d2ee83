/**
 * The web app's foundation on a real server: the start page, its hashed assets, paths that are no
 * page, and the sign-in session as the web app's credential on pages and on the APIs its scripts
 * call (reads, or writes carrying X-Requested-With), ended by signing out; on a private site a
 * browser is sent to sign in while an API client gets 401.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from '../browser.js';
import { FormBrowser } from '../oauth/oauth-fixture.js';
import { OPEN, SECRET, startRestrictedInstance, type RestrictedInstance } from '../restricted-instance.js';
import { assertAccessible, screenshotBothWidths } from './web-browser.js';

let instance: RestrictedInstance;
const PASSWORD = 'a long enough password';

before(async () => {
  instance = await startRestrictedInstance({ 'main.go': 'package main\n\nfunc Router() {} // open router\n' });
  assert.equal(instance.quarry(['users', 'create', 'bob', '--email', 'bob@example.com', '--password-stdin'], `${PASSWORD}\n`).status, 0);
  assert.equal(instance.quarry(['users', 'create', 'carol', '--email', 'carol@example.com', '--password-stdin'], `${PASSWORD}\n`).status, 0);
  assert.equal(instance.quarry(['repos', 'restrict', SECRET, '--users', 'bob']).status, 0);
  instance.setConfig(PUBLIC);
});

const PUBLIC = '{"auth.public": true}';

after(async () => instance.close());

async function signedIn(username: string): Promise<FormBrowser> {
  const browser = new FormBrowser(instance.server.url);
  const answer = await browser.signIn(username, PASSWORD, '/search');
  assert.equal(answer.status, 303);
  assert.equal(answer.headers.get('location'), '/search');
  return browser;
}

/** The repositories a streamed search for `Router` matched in. */
async function streamedRepos(browser: FormBrowser): Promise<string[]> {
  const answer = await browser.get('/.api/search/stream?q=Router');
  assert.equal(answer.status, 200);
  const repos = [...(await answer.text()).matchAll(/"repository":"([^"]+)"/g)].map((m) => m[1]!);
  return [...new Set(repos)].sort();
}

test('the start page links this build\'s assets, served for a year under a content hash', async () => {
  const page = await fetch(`${instance.server.url}/search`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  const body = await page.text();
  assert.match(body, /<input type="search" id="app-search" name="q"/);
  const css = /href="(\/\.assets\/[A-Za-z0-9_-]{16}\/app\.css)"/.exec(body)?.[1];
  const script = /src="(\/\.assets\/[A-Za-z0-9_-]{16}\/app\.js)"/.exec(body)?.[1];
  assert.ok(css && script, body);
  for (const asset of [css, script]) {
    const answer = await fetch(`${instance.server.url}${asset}`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  }
  assert.match(await (await fetch(`${instance.server.url}${script}`)).text(), /addEventListener\('keydown'/);
  const stale = await fetch(`${instance.server.url}/.assets/AAAAAAAAAAAAAAAA/app.js`);
  assert.equal(stale.status, 404);
});

test('paths that are no page answer 404 as before, and a repository the viewer may not read is not found', async () => {
  for (const [method, path] of [['GET', '/.api/nothing'], ['POST', '/nothing/here'], ['GET', '/.well-known/nothing'], ['GET', `/${OPEN}/-/no-such-view`]] as const) {
    const answer = await fetch(`${instance.server.url}${path}`, { method });
    assert.equal(answer.status, 404, `${method} ${path}`);
    assert.equal(await answer.text(), `404 page not found: ${path}\n`);
  }
  const carol = await signedIn('carol');
  const hidden = await carol.get(`/${SECRET}/-/tree/`);
  const missing = await carol.get('/github.com/acme/never-added/-/tree/');
  assert.equal(hidden.status, 404);
  assert.equal(missing.status, 404);
  // The same words for both, so a page never confirms that a hidden repository exists.
  assert.equal((await hidden.text()).replace(SECRET, 'X'), (await missing.text()).replace('github.com/acme/never-added', 'X'));
});

test('the session cookie reads as its person on the stream API, and ends with sign-out', async () => {
  const bob = await signedIn('bob');
  const carol = await signedIn('carol');
  assert.deepEqual(await streamedRepos(bob), [OPEN, SECRET].sort());
  assert.deepEqual(await streamedRepos(carol), [OPEN]);
  assert.deepEqual(await streamedRepos(new FormBrowser(instance.server.url)), [OPEN]);
  const settings = await bob.get('/settings');
  const csrf = /name="csrf" value="([^"]+)"/.exec(await settings.text())![1]!;
  assert.equal((await bob.post('/sign-out', { csrf })).status, 303);
  assert.deepEqual(await streamedRepos(bob), [OPEN]);
});

test('GraphQL takes the session only with X-Requested-With, which no other site can send', async () => {
  const bob = await signedIn('bob');
  const query = JSON.stringify({ query: '{ currentUser { username } }' });
  const plain = await bob.post('/.api/graphql', {}, { 'content-type': 'application/json' });
  await plain.text();
  const forged = await (await fetchWith(bob, query, {})).json() as { data: { currentUser: unknown } };
  assert.equal(forged.data.currentUser, null);
  const own = await (await fetchWith(bob, query, { 'x-requested-with': 'Quarry' })).json() as { data: { currentUser: { username: string } } };
  assert.equal(own.data.currentUser.username, 'bob');
});

async function fetchWith(browser: FormBrowser, body: string, headers: Record<string, string>): Promise<Response> {
  const session = browser.cookie('quarry_session');
  assert.ok(session);
  return fetch(`${instance.server.url}/.api/graphql`, { method: 'POST', body, headers: { 'content-type': 'application/json', cookie: `quarry_session=${session}`, ...headers } });
}

test('on a private site (the default) a browser is sent to sign in and comes back; an API client gets 401', async () => {
  instance.setConfig('{}');
  try {
    const page = await fetch(`${instance.server.url}/search?q=a%20b`, { redirect: 'manual', headers: { accept: 'text/html' } });
    assert.equal(page.status, 303);
    assert.equal(page.headers.get('location'), `/sign-in?return_to=${encodeURIComponent('/search?q=a+b')}`);
    const api = await fetch(`${instance.server.url}/.api/search/stream?q=a`, { headers: { accept: 'text/html' } });
    assert.equal(api.status, 401);
    const bob = await signedIn('bob');
    assert.equal((await bob.get('/search')).status, 200);
  } finally {
    instance.setConfig(PUBLIC);
  }
});

test('the start page in Chromium: "/" focuses the search box, searching goes to /search?q=, no serious accessibility violation', async () => {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${instance.server.url}/search`);
    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id), 'app-search');
    await page.keyboard.type('Router lang:go');
    await Promise.all([page.waitForURL(/\/search\?q=/), page.keyboard.press('Enter')]);
    assert.equal(new URL(page.url()).searchParams.get('q'), 'Router lang:go');
    await assertAccessible(page, 'the start page');
    await screenshotBothWidths(page, 'search-start');
  } finally {
    await browser.close();
  }
});
