/**
 * The official conformance suite's `authorization` command (0.2.0-alpha line, mcp-auth §4.1)
 * against Quarry's authorization server on a real `quarry serve`: the metadata scenario, and the
 * authorization code grant, whose browser step a signed-in form browser completes by allowing on
 * the consent page and delivering the redirect to the suite's callback. Every check passes but
 * those the baseline in this folder lists, with exactly their status.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, it } from 'node:test';
import { makeTempDir, removeDir } from '../../git/fixtures.js';
import type { ConformanceCheck } from '../mcp/conformance-results.js';
import { CONFORMANCE_AUTHORIZATION, fetchTool, FETCH_TIMEOUT_MS, startTool, stopAllTools, tail } from '../mcp/external-tools.js';
import { FormBrowser, startOAuthQuarry, type OAuthFixture } from './oauth-fixture.js';
import { consent, register } from './oauth-flow.js';

const BASELINE = fileURLToPath(new URL('../../../../test/e2e/oauth/authorization-conformance-baseline.yml', import.meta.url));

let quarry: OAuthFixture;
let outDir = '';

before(async () => {
  await fetchTool(CONFORMANCE_AUTHORIZATION, ['--version']);
  quarry = await startOAuthQuarry();
  outDir = makeTempDir('quarry-auth-conformance');
}, { timeout: FETCH_TIMEOUT_MS + 60_000 });

after(async () => {
  stopAllTools();
  await quarry?.dispose();
  removeDir(outDir);
});

/** `- check-id: STATUS` lines of the baseline. */
function readBaseline(): Map<string, string> {
  return new Map([...readFileSync(BASELINE, 'utf8').matchAll(/^\s*-\s*([\w-]+):\s*(\w+)\s*$/gm)].map((m) => [m[1]!, m[2]!]));
}

function readAllChecks(dir: string): ConformanceCheck[] {
  return readdirSync(dir).flatMap((scenario) => JSON.parse(readFileSync(join(dir, scenario, 'checks.json'), 'utf8')) as ConformanceCheck[]);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it('passes the authorization suite with only the baselined checks not succeeding', { timeout: 240_000 }, async () => {
  const port = await freePort();
  const { status, body } = await register(quarry.url, { client_name: 'MCP conformance', redirect_uris: [`http://127.0.0.1:${port}/callback`] });
  assert.equal(status, 201);
  const child = startTool(CONFORMANCE_AUTHORIZATION, [
    'authorization', '--url', quarry.url, '--client-id', body['client_id'] as string, '--resource', quarry.endpointUrl('core'), '--port', String(port), '-o', outDir,
  ]);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const authorizeUrl = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no authorization URL printed:\n${tail(stdout)}\n${tail(stderr)}`)), 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const printed = /(http:\/\/\S+\/\.auth\/idp\/oauth\/authorize\?\S+)/.exec(stdout)?.[1];
      if (printed !== undefined && /Callback server started/.test(stdout)) {
        clearTimeout(timer);
        resolve(new URL(printed));
      }
    });
  });
  const browser = new FormBrowser(quarry.url);
  assert.equal((await browser.signIn()).status, 303);
  const callback = await consent(browser, authorizeUrl.searchParams.toString());
  assert.equal(callback.origin, `http://127.0.0.1:${port}`);
  await (await fetch(callback)).arrayBuffer();
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const checks = readAllChecks(outDir);
  const baseline = readBaseline();
  const unexpected = checks.filter((check) => check.status !== (baseline.get(check.id) ?? 'SUCCESS'));
  assert.deepEqual(unexpected.map((c) => `${c.id}=${c.status} ${c.errorMessage ?? ''}`), [], tail(stdout));
  assert.ok(checks.some((c) => c.id.startsWith('authorization-server-metadata')), 'the metadata scenario ran');
  assert.ok(checks.filter((c) => !c.id.startsWith('authorization-server-metadata')).length > 0, 'the code grant scenario ran');
  for (const id of baseline.keys()) assert.ok(checks.some((c) => c.id === id), `${id} is baselined but the suite no longer checks it`);
  assert.equal(code, 0, tail(stdout));
});
