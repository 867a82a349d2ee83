/**
 * mcp-remote 0.15.1 as a desktop client runs it: a stdio proxy pointed at a real `quarry serve`
 * MCP endpoint with no header at all, so it must sign in by OAuth (discovery, dynamic registration,
 * PKCE, its loopback callback). Its "browser" is a script that records the authorization URL; a
 * Chromium session signs in and allows on the consent page, and the redirect reaches mcp-remote's
 * callback. The SDK's stdio client then lists and calls tools through it; a second proxy reuses
 * the cached tokens without a browser.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Browser, BrowserContext } from 'playwright-core';
import { makeTempDir, removeDir } from '../../git/fixtures.js';
import { launchBrowser } from '../browser.js';
import { fetchTool, installedBin, MCP_REMOTE_PROXY, stopAllTools, tail } from '../mcp/external-tools.js';
import { expectedToolNames, FILE_CONTENT, FILE_PATH, REPO } from '../mcp/quarry-fixture.js';
import { ALICE, startOAuthQuarry, type OAuthFixture } from './oauth-fixture.js';
import { screenshot } from './screenshots.js';

const STEP_MS = 90_000;

let quarry: OAuthFixture;
let browser: Browser;
let context: BrowserContext;
let home = '';
let openedUrls = '';

before(async () => {
  await fetchTool(MCP_REMOTE_PROXY, ['--help']);
  home = makeTempDir('quarry-mcp-remote-home');
  openedUrls = join(home, 'opened-urls.txt');
  // xdg-open hands URLs to $BROWSER when no desktop is running: this one only writes them down.
  const script = join(home, 'record-browser.sh');
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${openedUrls}'\n`);
  chmodSync(script, 0o755);
  quarry = await startOAuthQuarry();
  browser = await launchBrowser();
  context = await browser.newContext();
}, { timeout: 120_000 });

after(async () => {
  stopAllTools();
  await context?.close();
  await browser?.close();
  await quarry?.dispose();
  removeDir(home);
});

function opened(): string[] {
  return existsSync(openedUrls) ? readFileSync(openedUrls, 'utf8').split('\n').filter(Boolean) : [];
}

/** Polls `probe` until it gives a value; gives up after `ms` or as soon as `failed` says why. */
async function waitFor<T>(what: string, ms: number, probe: () => T | undefined, failed: () => string | null, diagnostics: () => string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    const failure = failed();
    if (failure !== null || Date.now() > end) throw new Error(`${what}: not seen ${failure === null ? `within ${ms} ms` : `(${failure})`}\n${diagnostics()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** mcp-remote on the endpoint, no header, its state (token cache, lock files) under the temp home; stderr collected. */
function proxy(endpointUrl: string): { transport: StdioClientTransport; stderr: () => string } {
  const transport = new StdioClientTransport({
    command: installedBin(MCP_REMOTE_PROXY),
    args: [endpointUrl, '--transport', 'http-only', '--auth-timeout', String(STEP_MS / 1000)],
    env: { HOME: home, MCP_REMOTE_CONFIG_DIR: join(home, '.mcp-auth'), BROWSER: join(home, 'record-browser.sh'), NO_COLOR: '1' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { transport, stderr: () => stderr };
}

/** The cached OAuth files mcp-remote keeps per server: `<hash>_tokens.json` and `<hash>_client_info.json`. */
function cachedFiles(suffix: string): string[] {
  const root = join(home, '.mcp-auth');
  const dirs = existsSync(root) ? readdirSync(root).filter((d) => d.startsWith('mcp-remote-')) : [];
  return dirs.flatMap((d) => readdirSync(join(root, d)).filter((f) => f.endsWith(suffix)).map((f) => join(root, d, f)));
}

describe('mcp-remote 0.15.1 with OAuth and no headers', () => {
  it('signs in through the browser, then lists and calls tools over stdio', { timeout: 4 * STEP_MS }, async (t) => {
    const endpoint = quarry.endpointUrl('core');
    const { transport, stderr } = proxy(endpoint);
    const client = new Client({ name: 'quarry-mcp-remote-e2e', version: '1.0.0' });
    t.after(() => client.close());
    let failure: string | null = null;
    const connecting = client.connect(transport, { timeout: 3 * STEP_MS });
    connecting.catch((error: Error) => (failure = error.message));

    const url = new URL(await waitFor('the authorization URL handed to $BROWSER', STEP_MS, () => opened()[0], () => failure, () => tail(stderr())));
    assert.equal(url.origin + url.pathname, `${quarry.url}/.auth/idp/oauth/authorize`);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(url.searchParams.get('resource'), endpoint);
    const printed = /Please authorize this client by visiting:\n(\S+)/.exec(stderr())?.[1];
    assert.ok(printed, 'mcp-remote also prints the URL for a person to copy');
    assert.deepEqual([...new URL(printed).searchParams].sort(), [...url.searchParams].sort());
    const redirect = new URL(url.searchParams.get('redirect_uri')!);
    assert.match(redirect.href, /^http:\/\/localhost:\d+\/oauth\/callback$/);
    assert.match(url.searchParams.get('client_id')!, /^sgo_cid_/, 'registered itself (RFC 7591)');

    const page = await context.newPage();
    await page.goto(url.href);
    await page.fill('#username', ALICE.username);
    await page.fill('#password', ALICE.password);
    await page.click('main button[type=submit]');
    await page.waitForSelector('button[value=allow]');
    const consentText = await page.textContent('main') ?? '';
    assert.match(consentText, /Authorize MCP CLI Proxy\?/, 'the name mcp-remote registered');
    assert.ok(consentText.includes(redirect.host), 'the consent page names mcp-remote\'s callback host');
    await screenshot(page, 'consent-mcp-remote');
    await Promise.all([page.waitForURL((u) => u.host === redirect.host, { timeout: STEP_MS }), page.click('button[value=allow]')]);
    void page.close().catch(() => undefined);

    await connecting;
    assert.equal(client.getServerVersion()?.name, 'quarry');
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(tools, expectedToolNames('core'));
    const read = await client.callTool({ name: 'read_file', arguments: { repo: REPO, path: FILE_PATH } }) as { content: Array<{ text: string }>; isError?: boolean };
    assert.equal(read.isError, undefined);
    assert.ok(read.content[0]!.text.includes(FILE_CONTENT.split('\n').map((line, i) => `${i + 1}: ${line}`).join('\n')), read.content[0]!.text);

    const [tokensFile] = cachedFiles('_tokens.json');
    assert.ok(tokensFile, `mcp-remote cached its tokens under MCP_REMOTE_CONFIG_DIR\n${tail(stderr())}`);
    const cached = JSON.parse(readFileSync(tokensFile, 'utf8')) as { access_token: string; refresh_token: string; scope: string };
    assert.match(cached.access_token, /^sgo_at_/);
    assert.match(cached.refresh_token, /^sgo_rt_/);
    assert.equal(cached.scope, 'mcp offline_access', 'the scope it asked for; offline_access grants nothing more');
  });

  it('a second proxy connects with the cached tokens, opening no browser', { timeout: 2 * STEP_MS }, async (t) => {
    const before = opened().length;
    const { transport, stderr } = proxy(quarry.endpointUrl('core'));
    const client = new Client({ name: 'quarry-mcp-remote-e2e', version: '1.0.0' });
    t.after(() => client.close());
    await client.connect(transport, { timeout: STEP_MS }).catch((error: Error) => assert.fail(`${error.message}\n${tail(stderr())}`));
    assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name).sort(), expectedToolNames('core'));
    assert.equal(opened().length, before, 'no authorization URL was opened again');
  });
});
