/**
 * The search page in Chromium on a real server: results streamed with their ranges marked, "show
 * more", the filter sidebar narrowing the query and the URL (back returns), keyboard navigation
 * opening a result's blob URL, a query error marked at its position, the limit hit, a repository
 * restricted to bob never shown to carol, the page without JavaScript, accessibility and screenshots.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../browser.js';
import { FormBrowser } from '../oauth/oauth-fixture.js';
import { OPEN, SECRET, startRestrictedInstance, type RestrictedInstance } from '../restricted-instance.js';
import { assertAccessible, screenshotBothWidths } from './web-browser.js';

let instance: RestrictedInstance;
let browser: Browser;
const PASSWORD = 'a long enough password';

/** Router in Go (main.go, five lines of it) and TypeScript (web/router.ts), and in SECRET's plan.go. */
const OPEN_FILES = {
  'main.go': 'package main\n\nfunc Router() {} // open router\n\nvar a = Router\nvar b = Router\nvar c = Router\nvar d = Router\n',
  'web/router.ts': 'export function Router(): void {}\n',
  'README.md': 'Nothing to find here.\n',
};

before(async () => {
  instance = await startRestrictedInstance(OPEN_FILES);
  for (const user of ['bob', 'carol']) {
    assert.equal(instance.quarry(['users', 'create', user, '--email', `${user}@example.com`, '--password-stdin'], `${PASSWORD}\n`).status, 0);
  }
  assert.equal(instance.quarry(['repos', 'restrict', SECRET, '--users', 'bob']).status, 0);
  instance.setConfig('{"auth.public": true}');
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await instance.close();
});

/** A browser context signed in as `username` with its session cookie, or anonymous. */
async function contextFor(username: string | null, options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  if (username !== null) {
    const form = new FormBrowser(instance.server.url);
    assert.equal((await form.signIn(username, PASSWORD, '/search')).status, 303);
    await context.addCookies([{ name: 'quarry_session', value: form.cookie('quarry_session')!, url: instance.server.url }]);
  }
  return context;
}

async function searchIn(page: Page, query: string): Promise<void> {
  await page.goto(`${instance.server.url}/search?q=${encodeURIComponent(query)}`);
  await page.waitForSelector('#search-status [elementtiming="search-done"], #search-alerts .error');
}

const resultPaths = (page: Page): Promise<string[]> => page.$$eval('#search-results a[data-primary]', (links) => links.map((a) => a.textContent ?? '').sort());
const resultRepos = (page: Page): Promise<string[]> => page.$$eval('#search-results a.repo', (links) => [...new Set(links.map((a) => a.textContent ?? ''))].sort());

test('a search streams its results in, ranges marked, counts per file, "show more" for the rest, the query highlighted', async () => {
  const context = await contextFor(null);
  try {
    const page = await context.newPage();
    const streamRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/.api/search/stream')) streamRequests.push(request.url());
    });
    const response = await page.goto(`${instance.server.url}/search?q=${encodeURIComponent('Router lang:go')}`);
    await page.waitForSelector('#search-status [elementtiming="search-done"]');
    // One search, run with the page: its first result is in the HTML, its other events are data in
    // the same response, and the script asks the stream API for nothing.
    assert.deepEqual(streamRequests, []);
    const body = await response!.text();
    assert.match(body, /<ol class="results" id="search-results"[^>]*><li class="result"><div class="result-header"><a class="repo" [^>]*elementtiming="first-result"/);
    assert.match(body, /<script type="application\/json" data-event="filters">\[\{"value":"repo:/);
    // The HTML holds the shown lines only, to paint at once; the rest come as the result's data, for "show more".
    assert.doesNotMatch(body, /<a class="line[^"]*" [^>]*hidden/);
    assert.match(body, /<script type="application\/json" data-event="rendered">\[\{"type":"content",[^<]*"lineNumber":7,/);
    assert.match(body, /data-event="done">\{\}<\/script>\n<\/div><\/main><\/body><\/html>\n$/);
    assert.deepEqual(await resultPaths(page), ['main.go']);
    // The stylesheet comes inlined, nothing to fetch before the first paint, and the page's content security policy lets it apply.
    assert.doesNotMatch(body, /<link rel="stylesheet"/);
    assert.match(response!.headers()['content-security-policy'] ?? '', /style-src 'self' 'sha256-[\w+/=]+';/);
    const main = page.locator('#search-results li.result').first();
    assert.equal(await main.evaluate((item) => (globalThis as unknown as { getComputedStyle(e: unknown): { contentVisibility: string } }).getComputedStyle(item).contentVisibility), 'auto');
    // Keyword search ignores case: line 3 holds `Router` and `router`, one matched line of five.
    assert.equal(await main.locator('.count').textContent(), '5 matches');
    const rows = (selector: string): Promise<string[]> => main.locator(`a.line${selector} .ln`).allTextContents();
    // Two lines of context either side of the first three matched lines; the rest behind "show more".
    assert.deepEqual(await rows(':not([hidden])'), ['1', '2', '3', '4', '5', '6']);
    assert.deepEqual(await rows('.context:not([hidden])'), ['1', '2', '4']);
    assert.deepEqual(await main.locator('a.line:not([hidden]) mark').allTextContents(), ['Router', 'router', 'Router', 'Router']);
    assert.equal(await main.locator('a.line:not(.context)').first().getAttribute('href'), `/${OPEN}@main/-/blob/main.go#L3`);
    assert.equal(await main.locator('a.line.context').first().getAttribute('href'), `/${OPEN}@main/-/blob/main.go#L1`);
    await main.getByRole('button', { name: 'Show 2 more matched lines' }).click();
    assert.equal(await main.locator('button.more').count(), 0);
    assert.deepEqual(await rows(':not([hidden])'), ['1', '2', '3', '4', '5', '6', '7', '8']);
    assert.deepEqual(await rows(':not(.context)'), ['3', '5', '6', '7', '8']);
    assert.match(await page.locator('#search-status').textContent() ?? '', /^5 matches in 1 repository in \d+ ms$/);
    assert.equal(await page.inputValue('#app-search'), 'Router lang:go');
    assert.deepEqual(await page.$$eval('.query-overlay span', (spans) => spans.map((s) => `${s.className}=${s.textContent}`)),
      ['q-pattern=Router', 'q-space= ', 'q-filter-key=lang:', 'q-filter-value=go']);
    await assertAccessible(page, 'the search results page');
    await screenshotBothWidths(page, 'search-results');
    // The same search from the box, streamed from the stream API and built by the script: the same rows.
    await page.fill('#app-search', 'Router  lang:go');
    await Promise.all([page.waitForURL((url) => url.searchParams.get('q') === 'Router  lang:go'), page.press('#app-search', 'Enter')]);
    await page.waitForSelector('#search-status [elementtiming="search-done"]');
    assert.deepEqual(await rows(':not([hidden])'), ['1', '2', '3', '4', '5', '6']);
    assert.deepEqual(await rows('.context:not([hidden])'), ['1', '2', '4']);
    assert.deepEqual(await main.locator('a.line:not([hidden]) mark').allTextContents(), ['Router', 'router', 'Router', 'Router']);
    await main.getByRole('button', { name: 'Show 2 more matched lines' }).click();
    assert.deepEqual(await rows(':not(.context)'), ['3', '5', '6', '7', '8']);
  } finally {
    await context.close();
  }
});

test('the search box colours filters, negation, operators, parentheses, regexps and quoted strings', async () => {
  const context = await contextFor(null);
  try {
    const page = await context.newPage();
    await page.goto(`${instance.server.url}/search`);
    await page.fill('#app-search', '-file:test (foo OR /ba+r/) NOT "x y" repo:^a$');
    const tokens = await page.$$eval('.query-overlay span', (spans) => spans.filter((s) => s.className !== 'q-space').map((s) => `${s.className}=${s.textContent}`));
    assert.deepEqual(tokens, [
      'q-negation=-', 'q-filter-key=file:', 'q-filter-value=test', 'q-paren=(', 'q-pattern=foo', 'q-operator=OR', 'q-regexp=/ba+r/', 'q-paren=)',
      'q-operator=NOT', 'q-quoted="x y"', 'q-filter-key=repo:', 'q-filter-value=^a$',
    ]);
    // The overlay copies the input's text exactly, so the colours lie under the characters they colour.
    assert.equal(await page.locator('.query-overlay').textContent(), await page.inputValue('#app-search'));
    assert.equal(await page.getAttribute('.query-overlay', 'aria-hidden'), 'true');
  } finally {
    await context.close();
  }
});

test('symbol results list each definition with its kind, linked to its line, with a symbol kind filter', async () => {
  const context = await contextFor(null);
  try {
    const page = await context.newPage();
    await searchIn(page, 'type:symbol Router');
    const symbols = page.locator('#search-results ul.symbols a');
    assert.deepEqual((await symbols.allTextContents()).sort(), ['function Router', 'function Router']);
    assert.deepEqual((await page.$$eval('#search-results ul.symbols a', (links) => links.map((a) => a.getAttribute('href')))).sort(),
      [`/${OPEN}@main/-/blob/main.go#L3`, `/${OPEN}@main/-/blob/web/router.ts#L1`]);
    assert.deepEqual(await page.$$eval('#search-filters h2', (h) => h.map((e) => e.textContent)), ['Repositories', 'Languages', 'Paths', 'Symbol kinds']);
  } finally {
    await context.close();
  }
});

/** The page's result items as `kind | primary link text | its href`. */
const resultSummaries = (page: Page): Promise<string[]> => page.$$eval('#search-results li.result', (items) => items.map((item) => {
  const primary = item.querySelector('a[data-primary]');
  return `${item.querySelector('.kind')?.textContent ?? ''} | ${primary?.textContent ?? ''} | ${primary?.getAttribute('href') ?? ''}`;
}));

test('commit, diff, repository and path results show their kind and link to their page, rendered by the server and by the script alike', async () => {
  const context = await contextFor(null);
  try {
    const page = await context.newPage();
    // The page's own search: its first results come rendered in the HTML.
    await searchIn(page, `type:commit initial repo:^${OPEN.replace(/\./g, '\\.')}$`);
    const [commit] = await resultSummaries(page);
    const oid = /^commit ([0-9a-f]{7}) · /.exec(commit ?? '')?.[1];
    assert.ok(oid !== undefined, commit);
    assert.match(commit!, new RegExp(`^commit ${oid} · [^|]+ · \\d{4}-\\d{2}-\\d{2} \\| initial \\| /${OPEN}/-/commit/${oid}[0-9a-f]{33}$`));
    assert.deepEqual(await page.locator('#search-results .commit-lines mark').allTextContents(), ['initial']);
    await assertAccessible(page, 'commit results');
    await screenshotBothWidths(page, 'search-results-commits');
    // Searches from the box stream from the stream API and are built by the script.
    const fromBox = async (query: string): Promise<void> => {
      await page.fill('#app-search', query);
      await Promise.all([page.waitForURL((url) => url.searchParams.get('q') === query), page.press('#app-search', 'Enter')]);
      await page.waitForSelector('#search-status [elementtiming="search-done"]');
    };
    await fromBox('type:diff Router repo:open');
    const diffs = await resultSummaries(page);
    assert.equal(diffs.length, 1, diffs.join('\n'));
    assert.match(diffs[0]!, new RegExp(`^diff ${oid} · [^|]+ \\| initial \\| /${OPEN}/-/commit/${oid}[0-9a-f]{33}$`));
    const added = await page.$$eval('#search-results .diff-line.added', (lines) => lines.filter((l) => l.querySelector('mark') !== null).map((l) => l.textContent));
    assert.ok(added.length > 0 && added.every((line) => /^\+.*router/i.test(line ?? '')), added.join('\n'));
    await assertAccessible(page, 'diff results');
    await screenshotBothWidths(page, 'search-results-diffs');
    await fromBox('type:repo open');
    assert.deepEqual(await resultSummaries(page), [`repository | ${OPEN} | /${OPEN}`]);
    await fromBox('type:path router');
    assert.deepEqual(await resultSummaries(page), [`path | web/router.ts | /${OPEN}@main/-/blob/web/router.ts`]);
    await assertAccessible(page, 'path results');
    await screenshotBothWidths(page, 'search-results-paths');
    // Opening a commit result lands on its commit page.
    await fromBox('type:commit initial repo:open');
    await Promise.all([page.waitForURL(/\/-\/commit\//), page.locator('#search-results a[data-primary]').first().click()]);
    assert.match(new URL(page.url()).pathname, new RegExp(`^/${OPEN}/-/commit/${oid}[0-9a-f]{33}$`));
  } finally {
    await context.close();
  }
});

test('a filter from the sidebar narrows the query and the URL; back returns to the wider search', async () => {
  const context = await contextFor(null);
  try {
    const page = await context.newPage();
    await searchIn(page, 'Router');
    assert.deepEqual(await resultPaths(page), ['main.go', 'web/router.ts']);
    const sections = await page.$$eval('#search-filters h2', (h) => h.map((e) => e.textContent));
    assert.deepEqual(sections, ['Repositories', 'Languages', 'Paths']);
    await Promise.all([page.waitForURL(/lang%3Atypescript/), page.locator('#search-filters a', { hasText: 'TypeScript' }).click()]);
    assert.equal(new URL(page.url()).searchParams.get('q'), 'Router lang:typescript');
    await page.waitForSelector('#search-status [elementtiming="search-done"]');
    assert.deepEqual(await resultPaths(page), ['web/router.ts']);
    assert.equal(await page.inputValue('#app-search'), 'Router lang:typescript');
    await page.goBack();
    assert.equal(new URL(page.url()).searchParams.get('q'), 'Router');
    await page.waitForFunction(() => (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll('#search-results li.result').length === 2);
    assert.equal(await page.inputValue('#app-search'), 'Router');
  } finally {
    await context.close();
  }
});

test('j and k move between results, Enter opens the focused result\'s blob URL', async () => {
  const context = await contextFor(null);
  try {
    const page = await context.newPage();
    await searchIn(page, 'Router');
    const focused = (): Promise<string | null> => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }).document.activeElement?.textContent ?? null);
    const order = await page.$$eval('#search-results a[data-primary]', (links) => links.map((a) => a.textContent));
    await page.keyboard.press('j');
    assert.equal(await focused(), order[0]);
    await page.keyboard.press('j');
    assert.equal(await focused(), order[1]);
    await page.keyboard.press('k');
    assert.equal(await focused(), order[0]);
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(), order[1]);
    await Promise.all([page.waitForURL(/\/-\/blob\//), page.keyboard.press('Enter')]);
    assert.equal(new URL(page.url()).pathname, `/${OPEN}@main/-/blob/${order[1]}`);
  } finally {
    await context.close();
  }
});

test('a query error is shown with its position marked, in the results and in the box', async () => {
  const context = await contextFor(null);
  try {
    const page = await context.newPage();
    await searchIn(page, 'Router (lang:go');
    const alert = page.locator('#search-alerts .error');
    assert.equal(await alert.locator('strong').textContent(), 'Unable To Process Query');
    const description = await alert.locator('p').textContent() ?? '';
    const position = Number(/at position (\d+)$/.exec(description)?.[1]);
    assert.ok(Number.isInteger(position), description);
    assert.equal(await alert.locator('.error-position mark').textContent(), 'Router (lang:go'[position] ?? ' ');
    assert.ok((await page.locator('.query-overlay .q-error').count()) > 0);
    assert.equal(await page.locator('#search-results li').count(), 0);
  } finally {
    await context.close();
  }
});

test('a search stopped by its count says that more results exist, with count:all as a link', async () => {
  const context = await contextFor(null);
  try {
    const page = await context.newPage();
    await searchIn(page, 'Router count:1');
    const notice = page.locator('#search-notices .limit-hit');
    assert.match(await notice.textContent() ?? '', /^More results exist: add count:all or refine the query\.$/);
    assert.equal(new URL(await notice.locator('a').getAttribute('href') ?? '', instance.server.url).searchParams.get('q'), 'Router count:1 count:all');
  } finally {
    await context.close();
  }
});

test('a repository restricted to bob appears in his results and filters, never in carol\'s or an anonymous visitor\'s', async () => {
  const cases: [string | null, string[]][] = [['bob', [OPEN, SECRET].sort()], ['carol', [OPEN]], [null, [OPEN]]];
  for (const [user, repos] of cases) {
    const context = await contextFor(user);
    try {
      const page = await context.newPage();
      await searchIn(page, 'Router');
      assert.deepEqual(await resultRepos(page), repos, `results for ${user ?? 'anonymous'}`);
      const filterText = await page.locator('#search-filters').textContent() ?? '';
      assert.equal(filterText.includes(SECRET), repos.includes(SECRET), `filters for ${user ?? 'anonymous'}`);
      const html = await (await page.request.get(`${instance.server.url}/search?q=Router&static=1`)).text();
      assert.equal(html.includes(SECRET), repos.includes(SECRET), `the page without JavaScript for ${user ?? 'anonymous'}`);
    } finally {
      await context.close();
    }
  }
});

test('without JavaScript the page sends the browser to its server-rendered results, with the same lines of context', async () => {
  const context = await contextFor(null, { javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(`${instance.server.url}/search?q=${encodeURIComponent('Router lang:go')}`);
    await page.waitForURL(/static=1/);
    assert.deepEqual(await page.locator('ol.results a.path').allTextContents(), ['main.go']);
    assert.deepEqual(await page.locator('ol.results mark').allTextContents(), ['Router', 'router', 'Router', 'Router', 'Router', 'Router']);
    // The lines of context the streamed page shows, two either side of each matched line, each linked to its line.
    const rows = (selector: string): Promise<string[]> => page.locator(`ol.results a.line${selector} .ln`).allTextContents();
    assert.deepEqual(await rows(''), ['1', '2', '3', '4', '5', '6', '7', '8']);
    assert.deepEqual(await rows('.context'), ['1', '2', '4']);
    assert.deepEqual(await page.locator('ol.results a.line.context code').allTextContents(), ['package main', '', '']);
    assert.equal(await page.locator('ol.results a.line.context').first().getAttribute('href'), `/${OPEN}@main/-/blob/main.go#L1`);
    assert.match(await page.locator('.search-status').textContent() ?? '', /^5 matches in \d+ ms$/);
    await page.goto(`${instance.server.url}/search?q=${encodeURIComponent('Router (lang:go')}&static=1`);
    assert.match(await page.locator('.error p').textContent() ?? '', /at position \d+$/);
    assert.equal(await page.locator('.error .error-position mark').count(), 1);
  } finally {
    await context.close();
  }
  // axe-core runs as a script: the same page, in a browser that runs them.
  const checking = await contextFor(null);
  try {
    const page = await checking.newPage();
    await page.goto(`${instance.server.url}/search?q=Router&static=1`);
    await assertAccessible(page, 'the search page without JavaScript');
    await screenshotBothWidths(page, 'search-results-static');
  } finally {
    await checking.close();
  }
});
