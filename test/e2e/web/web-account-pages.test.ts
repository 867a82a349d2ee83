/**
 * The pages around the code in Chromium: branches and tags (each ref's last commit, the default
 * branch first, tags newest first, a filter that works without script), the not-found page (for a
 * missing file and for any unknown path a browser opens), sign-in and Settings. Each is checked
 * for keyboard use (where the focus starts, the order Tab takes, a visible focus indicator at every
 * stop), labels and contrast (axe-core), its layout at desktop and phone widths (nothing scrolls
 * sideways, no control outside the screen or over another), and a console free of errors; each is
 * screenshotted at both widths for review.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../browser.js';
import { HISTORY, PASSWORD, startHistoryInstance, type HistoryFixture } from './repo-fixture.js';
import { assertAccessible, assertLayout, focused, screenshotBothWidths, tabStops, watchConsole } from './web-browser.js';

let fixture: HistoryFixture;
let browser: Browser;
let origin = '';
let base = '';

before(async () => {
  fixture = await startHistoryInstance();
  origin = fixture.instance.server.url;
  base = `${origin}/${HISTORY}`;
  browser = await launchBrowser();
});

after(async () => {
  await browser.close();
  await fixture.close();
});

async function checked(page: Page, name: string): Promise<void> {
  await assertAccessible(page, name);
  await assertLayout(page, name);
  await screenshotBothWidths(page, name);
}

/** Tab from the top of the page through `count` stops: each must show that it has the focus. */
async function assertTabStopsIndicated(page: Page, count: number, what: string): Promise<string[]> {
  await page.evaluate(() => (globalThis as unknown as { document: { body: { focus(): void } } }).document.body.focus());
  const stops = await tabStops(page, count);
  assert.deepEqual(stops.filter((s) => !s.indicated).map((s) => s.element), [], `focus indicators of ${what}`);
  return stops.map((s) => s.element);
}

const refNames = (page: Page): Promise<string[]> => page.$$eval('table.refs tbody tr th a', (links) => links.map((a) => a.textContent ?? ''));

test('branches: the default branch first, each with its last commit\'s subject and date, linked to its tree and history', async () => {
  const page = await browser.newPage();
  const errors = watchConsole(page);
  await page.goto(`${base}/-/branches`);
  assert.deepEqual(await refNames(page), ['main', 'dev']);
  const rows = await page.$$eval('table.refs tbody tr', (trs) => trs.map((tr) => (tr.textContent ?? '').replace(/\s+/g, ' ').trim()));
  assert.match(rows[0]!, /^main default .*Use a second router/);
  assert.match(rows[1]!, /^dev .*Work on dev/);
  assert.equal(await page.$$eval('table.refs tbody tr time[datetime]', (times) => times.length), 2);
  assert.equal(await page.getAttribute('table.refs tbody tr:first-child th a', 'href'), `/${HISTORY}@main`);
  await checked(page, 'repo-branches');
  await assertTabStopsIndicated(page, 12, 'the branches page');
  assert.deepEqual(errors(), []);
  await page.close();
});

test('tags: newest first; the filter narrows them with the keyboard alone and says when nothing matches', async () => {
  const page = await browser.newPage();
  const errors = watchConsole(page);
  await page.goto(`${base}/-/tags`);
  assert.deepEqual(await refNames(page), ['v2', 'v1']);
  assert.equal(await page.textContent('label[for=ref-filter]'), 'Filter tags');
  await page.focus('#ref-filter');
  await page.keyboard.type('v1');
  await Promise.all([page.waitForURL(/\/-\/tags\?q=v1$/), page.keyboard.press('Enter')]);
  assert.deepEqual(await refNames(page), ['v1']);
  assert.equal(await page.inputValue('#ref-filter'), 'v1', 'the filter keeps what was typed');
  // From the filter, Tab reaches its button and then the first tag.
  await page.focus('#ref-filter');
  const [button, first] = await tabStops(page, 2);
  assert.match(button!.element, /^button/);
  assert.match(first!.element, /^a v1$/);
  await checked(page, 'repo-tags-filtered');
  await page.goto(`${base}/-/tags?q=nothing-like-this`);
  assert.equal((await page.textContent('main p.empty'))?.trim(), 'No tags match "nothing-like-this".');
  await checked(page, 'repo-tags-none');
  assert.deepEqual(errors(), []);
  await page.close();
});

test('not found: a missing file offers its repository and a search for its name; an unknown path a browser opens is the same page', async () => {
  const page = await browser.newPage();
  const errors = watchConsole(page);
  const missing = await page.goto(`${base}/-/blob/docs/no-such-file.go`);
  assert.equal(missing?.status(), 404);
  assert.equal(await page.title(), 'Not found · Quarry');
  assert.equal(await page.textContent('main h1'), 'Not found');
  const links = await page.$$eval('main a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
  assert.deepEqual(links.find(([text]) => text === HISTORY), [HISTORY, `/${HISTORY}`]);
  const search = links.find(([text]) => text?.startsWith('Search for'));
  assert.ok(search, JSON.stringify(links));
  assert.equal(new URL(search[1]!, origin).searchParams.get('q'), `repo:^${HISTORY.replace(/\./g, '\\.')}$ file:no-such-file\\.go`);
  await checked(page, 'not-found-file');
  const stops = await assertTabStopsIndicated(page, 4, 'the not-found page');
  assert.match(stops[1]!, /^input#app-search/, 'the header search box comes right after the brand');
  const unknown = await page.goto(`${base}/-/no-such-view`);
  assert.equal(unknown?.status(), 404);
  assert.equal(await page.textContent('main h1'), 'Not found');
  assert.equal(await page.textContent('main p'), `No page is at /${HISTORY}/-/no-such-view.`);
  await checked(page, 'not-found-path');
  await page.goto(`${origin}/nothing/here`);
  assert.equal(await page.textContent('main p'), 'No repository named nothing/here is here, or you may not read it.');
  assert.deepEqual(errors(), []);
  await page.close();
});

test('sign-in: the focus starts in Username, Tab goes on to Password and Sign in, a wrong password is told at the fields, Enter signs in', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchConsole(page);
  await page.goto(`${origin}/sign-in?return_to=${encodeURIComponent('/search?q=Router')}`);
  assert.equal((await focused(page)).element, 'input#username username');
  const stops = await tabStops(page, 2);
  assert.deepEqual(stops.map((s) => s.element), ['input#password password', 'button Sign in']);
  assert.ok(stops.every((s) => s.indicated), JSON.stringify(stops));
  await checked(page, 'sign-in');
  await page.focus('#username');
  await page.keyboard.type('bob');
  await page.keyboard.press('Tab');
  await page.keyboard.type('not the password');
  const [refused] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  assert.equal(refused?.status(), 401);
  const alert = await page.getAttribute('[role=alert]', 'id');
  assert.ok(alert);
  assert.equal(await page.textContent(`#${alert}`), 'The username or password is wrong.');
  for (const field of ['#username', '#password']) {
    assert.equal(await page.getAttribute(field, 'aria-invalid'), 'true', field);
    assert.equal(await page.getAttribute(field, 'aria-describedby'), alert, field);
  }
  assert.equal(await page.inputValue('#username'), 'bob');
  assert.equal((await focused(page)).element, 'input#password password', 'the focus waits in the field to correct');
  await checked(page, 'sign-in-refused');
  await page.keyboard.type(PASSWORD);
  await Promise.all([page.waitForURL(/\/search\?q=Router$/), page.keyboard.press('Enter')]);
  assert.deepEqual(errors(), []);
  await context.close();
});

test('settings: the header searches code, the sections are a labelled menu with the current one marked, every stop shows its focus', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchConsole(page);
  await page.goto(`${origin}/sign-in?return_to=/settings`);
  await page.fill('#username', 'bob');
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(/\/settings$/), page.press('#password', 'Enter')]);
  assert.equal(await page.textContent('nav[aria-label=Settings] a[aria-current=page]'), 'Account');
  assert.equal(await page.getAttribute('header a.brand', 'href'), '/search');
  const stops = await assertTabStopsIndicated(page, 8, 'the settings page');
  assert.match(stops[1]!, /^input#app-search/);
  await checked(page, 'settings-account');
  await page.click('nav[aria-label=Settings] a:text-is("Access tokens")');
  await page.waitForURL(/\/settings\/tokens$/);
  await checked(page, 'settings-tokens');
  await assertTabStopsIndicated(page, 10, 'the access tokens page');
  await page.focus('#app-search');
  await page.keyboard.type('NewRouter');
  await Promise.all([page.waitForURL(/\/search\?q=NewRouter$/), page.keyboard.press('Enter')]);
  assert.deepEqual(errors(), []);
  await context.close();
});
