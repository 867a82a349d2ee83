/**
 * The debug console in a real headless browser (Debian's chromium via playwright-core): GraphiQL
 * loads from the installed package, runs a query with the user's token, and its Docs panel shows
 * our schema.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { launchBrowser } from './browser.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

let data = '';
let server: ServerProcess;
let browser: Browser;

before(async () => {
  data = makeTempDir('quarry-console');
  server = await startServerProcess(data);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  removeDir(data);
});

test('the console loads without a CDN, runs a query with the token, and documents search', async () => {
  const page = await browser.newPage();
  const external: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(server.url)) external.push(request.url());
  });
  await page.goto(`${server.url}/debug/console`);
  await page.waitForSelector('.graphiql-container', { timeout: 20_000 });
  await page.fill('#token', server.adminToken!);
  await page.click('#save');
  await page.waitForSelector('.graphiql-query-editor .CodeMirror');
  // Browser-side code as strings: this project compiles without the DOM library.
  await page.evaluate(`document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue('{ currentUser { username siteAdmin } }')`);
  await page.click('.graphiql-execute-button');
  const response = `document.querySelector('.graphiql-response .CodeMirror')`;
  await page.waitForFunction(`${response} !== null && ${response}.CodeMirror.getValue().includes('"username"')`, undefined, { timeout: 20_000 });
  const result = await page.evaluate<string>(`${response}.CodeMirror.getValue()`);
  assert.deepEqual(JSON.parse(result), { data: { currentUser: { username: 'admin', siteAdmin: true } } });
  await page.click('[aria-label="Show Documentation Explorer"]');
  await page.click('.graphiql-doc-explorer-content a:has-text("Query")');
  await page.waitForSelector('.graphiql-doc-explorer-content >> text=search', { timeout: 20_000 });
  assert.deepEqual(external, [], 'nothing is fetched from outside the server');
});
