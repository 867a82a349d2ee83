/**
 * The deep search pages in Debian's chromium against a real `quarry serve`: a visitor not signed in
 * is sent to sign in and back; the owner and a site admin read `/deepsearch/<token>`, another user
 * gets its 404 but reads `/deepsearch/shared/<token>`; the answer's Markdown is rendered, and the
 * question's and the answer's raw HTML and script links show as text (nothing runs); the `.md`
 * forms answer text/markdown to the same readers; a page still researching reloads itself; and
 * the pages read without JavaScript. Screenshots go to dist/test-output/deepsearch-pages/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../browser.js';
import { API, QUESTION, startDeepSearchInstance, type DeepSearchInstance } from './deepsearch-fixture.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../../../test-output/deepsearch-pages/', import.meta.url));

const CAROL = { username: 'carol', password: 'carol has a long passphrase' } as const;
const DAVE = { username: 'dave', password: 'dave has a long passphrase too' } as const;
const ROOT = { username: 'root', password: 'root has the longest passphrase' } as const;

const HOSTILE_QUESTION = 'Is <script>window.pwned = 1</script> **escaped** in <b>questions</b>?';
const HOSTILE_ANSWER = [
  '# Findings', '',
  'The [router](/github.com/acme/open/-/blob/web/router.go) dispatches; [do not click](javascript:window.pwned=2) and `<i>code</i>`.',
  '<img src="x" onerror="window.pwned = 3"><script>window.pwned = 4</script>', '',
  '- first point', '- second point', '',
  '```go', '</code></pre><script>window.pwned = 5</script>', '```', '',
  'FOLLOWUPS: What calls dispatch? | <b>Is this bold?</b>',
].join('\n');

let ds: DeepSearchInstance;
let browser: Browser;
let carolToken: string;
let daveToken: string;

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

function createUser(who: { username: string; password: string }, admin = false): string {
  const made = ds.quarry(['users', 'create', who.username, ...(admin ? ['--site-admin'] : []), '--password-stdin'], `${who.password}\n`);
  assert.equal(made.status, 0, made.stderr);
  return ds.quarry(['tokens', 'create', who.username]).stdout.trim();
}

/** Opens `path` in a fresh context, signs in where it sends us, and lands back on `path`. */
async function signedIn(who: { username: string; password: string }, path: string, options: { javaScriptEnabled?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(`${ds.url}${path}`);
  assert.equal(page.url(), `${ds.url}/sign-in?return_to=${encodeURIComponent(path)}`);
  await page.fill('#username', who.username);
  await page.fill('#password', who.password);
  await page.click('main button[type=submit]');
  await page.waitForURL(`${ds.url}${path}`);
  return { context, page };
}

async function ask(token: string, question: string): Promise<any> {
  const started = await ds.api(token, 'POST', API, { question });
  assert.equal(started.status, 202, started.text);
  return started.json;
}

async function fetchPage(path: string, token: string | null): Promise<{ status: number; type: string | null; refresh: string | null; text: string }> {
  const response = await fetch(`${ds.url}${path}`, { headers: token === null ? {} : { Authorization: `token ${token}` }, redirect: 'manual' });
  return { status: response.status, type: response.headers.get('content-type'), refresh: response.headers.get('refresh'), text: await response.text() };
}

before(async () => {
  ds = await startDeepSearchInstance();
  carolToken = createUser(CAROL);
  daveToken = createUser(DAVE);
  createUser(ROOT, true);
  browser = await launchBrowser();
}, { timeout: 120_000 });

after(async () => {
  await browser?.close();
  await ds?.close();
});

describe('a researched conversation\'s page', () => {
  let conversation: any;

  before(async () => {
    conversation = await ds.completed(carolToken, (await ask(carolToken, QUESTION)).id);
  }, { timeout: 120_000 });

  it('sends a visitor to sign in, then shows the owner the answer, sources, stats, follow-ups and tool calls', { timeout: 90_000 }, async () => {
    const path = `/deepsearch/${conversation.read_token}`;
    const { context, page } = await signedIn(CAROL, path);
    await screenshot(page, 'conversation-owner');
    assert.equal(await page.locator('h1').textContent(), QUESTION);
    assert.equal(await page.locator('.asked').textContent(), QUESTION);
    const sources = page.locator('ul.sources a');
    assert.ok(await sources.count() > 0);
    assert.match(await sources.first().getAttribute('href') ?? '', new RegExp(`^${ds.url}/github\\.com/acme/open@[0-9a-f]{40}/-/blob/web/router\\.go\\?L\\d+`));
    assert.match(await page.locator('.answer').innerText(), /func Router\(path string\) string/);
    assert.match(await page.locator('.stats').textContent() ?? '', /^\d+ tool calls · \d+ steps · 0 model tokens · \d+\.\d s$/);
    assert.ok(await page.locator('ul.followups li').count() > 0);
    assert.match(await page.locator('details summary').textContent() ?? '', /^Research: \d+ tool calls$/);
    assert.equal(await page.locator('.share code').textContent(), `${ds.url}/deepsearch/shared/${conversation.read_token}`);
    assert.equal(await page.locator('a', { hasText: 'Markdown' }).getAttribute('href'), `${path}.md`);
    const markdown = await page.goto(`${ds.url}${path}.md`);
    assert.equal(markdown?.headers()['content-type'], 'text/markdown; charset=utf-8');
    assert.match(await markdown!.text(), /^# where is the Router defined[^\n]*\n\nConversation \d+: /);
    await context.close();
  });

  it('is a 404 to another user by its normal link, whom the shared link shows it (without JavaScript); an admin reads both', { timeout: 90_000 }, async () => {
    const normal = `/deepsearch/${conversation.read_token}`;
    const { context, page } = await signedIn(DAVE, normal, { javaScriptEnabled: false });
    assert.equal(await page.locator('h1').textContent(), 'Deep search conversation not found');
    assert.equal((await page.goto(`${ds.url}${normal}`))?.status(), 404);
    await screenshot(page, 'conversation-not-found');
    const shared = await page.goto(`${ds.url}/deepsearch/shared/${conversation.read_token}`);
    assert.equal(shared?.status(), 200);
    assert.equal(await page.locator('h1').textContent(), QUESTION);
    assert.ok(await page.locator('ul.sources li').count() > 0);
    assert.equal(await page.locator('.share').count(), 0, 'only those who may read the normal link are offered the shared one');
    await screenshot(page, 'conversation-shared-no-javascript');
    await context.close();

    const admin = await signedIn(ROOT, normal);
    assert.equal(await admin.page.locator('h1').textContent(), QUESTION);
    await admin.context.close();
  });

  it('answers the .md forms to the same readers: 401 without credentials, 404 for another user\'s normal link', async () => {
    const normal = `/deepsearch/${conversation.read_token}.md`;
    const shared = `/deepsearch/shared/${conversation.read_token}.md`;
    const owner = await fetchPage(normal, carolToken);
    assert.equal(owner.status, 200);
    assert.equal(owner.type, 'text/markdown; charset=utf-8');
    assert.match(owner.text, /## Question 1: where is the Router defined/);
    assert.match(owner.text, /\*\*Sources\*\*/);
    assert.equal((await fetchPage(normal, null)).status, 401);
    assert.equal((await fetchPage(normal, daveToken)).status, 404);
    assert.equal((await fetchPage(normal, 'sgp_0000000000000000000000000000000000000000')).status, 401);
    assert.equal((await fetchPage(normal, ds.aliceMcp)).status, 401, 'an mcp-only token reads no pages');
    const byDave = await fetchPage(shared, daveToken);
    assert.equal(byDave.status, 200);
    assert.equal(byDave.text, owner.text);
    const anonymous = await fetchPage(`/deepsearch/shared/${conversation.read_token}`, null);
    assert.equal(anonymous.status, 303, 'the shared page too needs someone signed in');
    assert.equal((await fetchPage('/deepsearch/shared/00000000-0000-4000-8000-000000000000', daveToken)).status, 404);
    assert.equal((await fetchPage('/deepsearch/not-a-token', daveToken)).status, 404);
  });
});

describe('Markdown and HTML in questions and answers', () => {
  it('renders the answer\'s Markdown and shows every tag and script link as text; nothing runs', { timeout: 120_000 }, async () => {
    await ds.useModel([{ reply: { content: HOSTILE_ANSWER } }]);
    let conversation: any;
    try {
      conversation = await ds.completed(carolToken, (await ask(carolToken, HOSTILE_QUESTION)).id);
    } finally {
      await ds.useModel(null);
    }
    assert.equal(conversation.questions[0].error, undefined, JSON.stringify(conversation.questions[0].error));
    const { context, page } = await signedIn(CAROL, `/deepsearch/${conversation.read_token}`);
    await screenshot(page, 'conversation-hostile-markdown');
    assert.equal(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned), undefined, 'no script ran');
    assert.equal(await page.locator('main script, main img, main b, main i').count(), 0, 'no tag of the question or answer became an element');
    assert.equal(await page.locator('.asked').textContent(), HOSTILE_QUESTION);
    assert.equal(await page.locator('.answer h3').textContent(), 'Findings');
    assert.equal(await page.locator('.answer a', { hasText: 'router' }).getAttribute('href'), '/github.com/acme/open/-/blob/web/router.go');
    assert.equal(await page.locator('.answer a', { hasText: 'do not click' }).count(), 0, 'a javascript: link is its label alone');
    assert.match(await page.locator('.answer').innerText(), /<img src="x" onerror="window\.pwned = 3"><script>window\.pwned = 4<\/script>/);
    assert.equal(await page.locator('.answer code').first().textContent(), '<i>code</i>');
    assert.equal(await page.locator('.answer pre code').textContent(), '</code></pre><script>window.pwned = 5</script>');
    assert.deepEqual(await page.locator('.answer ul li').allTextContents(), ['first point', 'second point']);
    assert.deepEqual(await page.locator('ul.followups li').allTextContents(), ['What calls dispatch?', '<b>Is this bold?</b>']);
    await context.close();
  });
});

describe('a conversation still researching', () => {
  it('reloads itself every 5 s until its question is answered or canceled', { timeout: 120_000 }, async () => {
    await ds.useModel([], { hang: true });
    try {
      const started = await ask(carolToken, 'how does dispatch handle paths?');
      const running = await fetchPage(`/deepsearch/${started.read_token}`, carolToken);
      assert.equal(running.status, 200);
      assert.equal(running.refresh, '5');
      assert.match(running.text, /Still researching; this page reloads every 5 seconds\./);
      assert.match(running.text, /Still processing: 0 tool calls so far\./);
      const { context, page } = await signedIn(CAROL, `/deepsearch/${started.read_token}`);
      await screenshot(page, 'conversation-running');
      await context.close();
      assert.equal((await ds.api(carolToken, 'POST', `${API}/${started.id}/questions/${started.questions[0].id}/cancel`)).status, 200);
      const canceled = await fetchPage(`/deepsearch/${started.read_token}`, carolToken);
      assert.equal(canceled.refresh, null);
      assert.match(canceled.text, /<b>Canceled<\/b> \(Canceled\): The question was canceled before it was answered\./);
    } finally {
      await ds.useModel(null);
    }
  });
});
