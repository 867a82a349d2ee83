/**
 * The repository pages in Chromium: open a file from the tree, a selected line range, jump to a
 * definition and back through the browser's history, hover and find references, switch revision
 * with the picker, open a commit, compare two tags; each page screenshotted at desktop and phone
 * widths and checked with axe-core. With JavaScript off, the file and commit pages still work.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../browser.js';
import { HISTORY, startHistoryInstance, type HistoryFixture } from './repo-fixture.js';
import { assertAccessible, screenshotBothWidths } from './web-browser.js';

let fixture: HistoryFixture;
let browser: Browser;
let base = '';

before(async () => {
  fixture = await startHistoryInstance();
  base = `${fixture.instance.server.url}/${HISTORY}`;
  browser = await launchBrowser();
});

after(async () => {
  await browser.close();
  await fixture.close();
});

async function checked(page: Page, name: string): Promise<void> {
  await assertAccessible(page, name);
  await screenshotBothWidths(page, name);
}

/** The NewRouter identifier on a line: its link holds a highlight span, so it is found by its text. */
const identifier = (page: Page, line: number) => page.locator(`#L${line} a.id`, { hasText: /^NewRouter$/ });

const selectedLines = (page: Page): Promise<string[]> => page.$$eval('table.code tr.sel', (rows) => rows.map((r) => r.id));

test('open a file from the tree; a line range in the URL is highlighted', async () => {
  const page = await browser.newPage();
  await page.goto(base);
  await checked(page, 'repo-tree');
  await Promise.all([page.waitForURL(/\/-\/blob\/main\.go$/), page.click('ul.tree a:text-is("main.go")')]);
  assert.equal(await page.textContent('#L4 td.lc'), '\tr := NewRouter()');
  await page.goto(`${base}/-/blob/router.go#L8-10`);
  assert.deepEqual(await selectedLines(page), ['L8', 'L9', 'L10']);
  await checked(page, 'repo-blob');
  await page.click('#L3 td.ln a');
  assert.deepEqual(await selectedLines(page), ['L3']);
  await page.click('#L5 td.ln a', { modifiers: ['Shift'] });
  assert.ok(page.url().endsWith('#L3-5'), page.url());
  assert.deepEqual(await selectedLines(page), ['L3', 'L4', 'L5']);
  await page.close();
});

test('jump to a definition and back; hover shows its signature; find references fills the panel', async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/-/blob/main.go`);
  await Promise.all([page.waitForURL(/\/-\/blob\/router\.go#L9$/), identifier(page, 4).click()]);
  assert.deepEqual(await selectedLines(page), ['L9']);
  await page.goBack();
  assert.ok(page.url().endsWith('/-/blob/main.go'), page.url());
  await identifier(page, 5).hover();
  await page.waitForSelector('#hover-card:not([hidden])');
  assert.equal(await page.textContent('#hover-card pre'), 'func NewRouter() *Router {');
  await checked(page, 'repo-hover');
  await page.click('#hover-card button:text-is("Find references")');
  await page.waitForSelector('#refs-panel:not([hidden]) ol.refs li');
  assert.equal(await page.textContent('#refs-panel h2'), 'References to NewRouter');
  assert.deepEqual(await page.$$eval('#refs-panel ol.refs li a', (links) => links.map((a) => a.textContent)), [`${HISTORY} – main.go:4`, `${HISTORY} – main.go:5`]);
  await checked(page, 'repo-references');
  await page.close();
});

test('switch revision with the picker', async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/-/blob/main.go`);
  assert.match(await page.textContent('table.code') ?? '', /other := NewRouter\(\)/);
  await page.click('details.revpick summary');
  await checked(page, 'repo-picker');
  await Promise.all([page.waitForURL(/@v1\/-\/blob\/main\.go$/), page.click('.revpick-menu a:text-is("v1")')]);
  assert.doesNotMatch(await page.textContent('table.code') ?? '', /other/);
  assert.equal(await page.textContent('details.revpick summary strong'), 'v1');
  await page.close();
});

test('open a commit from the history; compare two tags', async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/-/commits`);
  await checked(page, 'repo-commits');
  await Promise.all([page.waitForURL(new RegExp(`/-/commit/${fixture.v2}$`)), page.click('ol.commits a:text-is("Use a second router")')]);
  assert.equal(await page.textContent('article.commit h2'), 'Use a second router');
  await checked(page, 'repo-commit');
  await page.goto(`${base}/-/compare`);
  await page.fill('#compare-base', 'v1');
  await page.fill('#compare-head', 'v2');
  await Promise.all([page.waitForURL(/\/-\/compare\/v1\.\.\.v2$/), page.click('form.compare button')]);
  assert.deepEqual(await page.$$eval('.file-diff h3 a', (links) => links.map((a) => a.textContent)), ['docs/guide.txt', 'main.go']);
  await checked(page, 'repo-compare');
  await page.goto(`${base}/-/contributors`);
  await checked(page, 'repo-contributors');
  await page.close();
});

test('with JavaScript off, the file view, its definition links and the commit page work', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(`${base}/-/blob/main.go%3FL4`);
    assert.deepEqual(await selectedLines(page), ['L4']);
    assert.match(await page.textContent('table.code') ?? '', /other := NewRouter\(\)/);
    await Promise.all([page.waitForURL(/\/-\/blob\/router\.go#L9$/), identifier(page, 4).click()]);
    assert.equal(await page.textContent('#L9 td.lc'), 'func NewRouter() *Router {');
    await Promise.all([page.waitForURL(/\/-\/references\/router\.go\?line=9&character=6$/), identifier(page, 9).click()]);
    assert.equal(await page.$$eval('ol.refs li', (items) => items.length), 2);
    await page.goto(`${base}/-/commit/${fixture.v2}`);
    assert.match(await page.textContent('article.commit') ?? '', /other := NewRouter\(\)/);
    // axe-core runs as page script, which this context refuses: the same page passed it with JavaScript on.
    await screenshotBothWidths(page, 'repo-commit-nojs');
  } finally {
    await context.close();
  }
});
