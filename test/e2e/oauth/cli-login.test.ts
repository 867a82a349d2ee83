/**
 * `quarry login` against a real `quarry serve`: the CLI prints the verification URL and user code,
 * alice (signed in through the pages' form session) approves the code at /device, the CLI's
 * polling gets the tokens and saves them to $HOME/src-config.json with mode 0600; `quarry api`
 * then answers as alice, and after the 3-second access token expired on the server it refreshes
 * (a new pair in the file, the old access token refused) and still answers.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, it } from 'node:test';
import { makeTempDir, removeDir } from '../../git/fixtures.js';
import { FormBrowser, csrfOf, startOAuthQuarry, type OAuthFixture } from './oauth-fixture.js';

const BIN = fileURLToPath(new URL('../../../../bin/quarry.js', import.meta.url));
const ACCESS_SECONDS = 3;

let quarry: OAuthFixture;
let home = '';

before(async () => {
  quarry = await startOAuthQuarry({ 'auth.oauth.accessTokenExpirySeconds': ACCESS_SECONDS });
  home = makeTempDir('quarry-login-home');
});

after(async () => {
  await quarry?.dispose();
  removeDir(home);
});

const env = () => ({ ...process.env, HOME: home, SRC_ENDPOINT: '', SRC_ACCESS_TOKEN: '' });

function api(): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [BIN, 'api', '-query', '{ currentUser { username } }'], { encoding: 'utf8', env: env() });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function graphqlStatus(token: string): Promise<string | null> {
  const response = await fetch(`${quarry.url}/.api/graphql`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ currentUser { username } }' }),
  });
  const body = await response.json().catch(() => null) as { data?: { currentUser: { username: string } | null } } | null;
  return body?.data?.currentUser?.username ?? null;
}

it('quarry login: device flow approved in a signed-in session, token saved 0600, used and refreshed by quarry api', { timeout: 120_000 }, async () => {
  const login = spawn(process.execPath, [BIN, 'login', quarry.url], { env: env() });
  let stderr = '';
  let stdout = '';
  login.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  const code = await new Promise<string>((resolve, reject) => {
    login.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /open (\S+\/device) and enter the code ([A-Z0-9-]+)/.exec(stderr);
      if (found) resolve(found[2]!);
    });
    login.on('exit', () => reject(new Error(`quarry login exited early: ${stderr}`)));
  });
  assert.match(stderr, new RegExp(`open ${quarry.url}/device and enter the code`));
  const exited = new Promise<number | null>((resolve) => login.on('exit', resolve));

  const browser = new FormBrowser(quarry.url);
  assert.equal((await browser.signIn()).status, 303);
  const page = await browser.get(`/device?user_code=${encodeURIComponent(code)}`);
  const html = await page.text();
  assert.match(html, /Quarry command line/);
  const approved = await browser.post('/device', { csrf: csrfOf(html), user_code: code, decision: 'allow' });
  assert.equal(approved.status, 200);
  assert.equal(await exited, 0, stderr);
  assert.match(stdout, /signed in to/);
  assert.ok(!stdout.includes('sgo_') && !stderr.includes('sgo_at_') && !stderr.includes('sgo_rt_'), 'no token on the terminal');

  const path = join(home, 'src-config.json');
  assert.equal(statSync(path).mode & 0o777, 0o600);
  const first = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  assert.equal(first['endpoint'], quarry.url);
  assert.match(String(first['accessToken']), /^sgo_at_/);
  assert.match(String(first['refreshToken']), /^sgo_rt_/);
  assert.equal(first['clientId'], 'sgo_cid_sourcegraph-cli');

  await new Promise((resolve) => setTimeout(resolve, (ACCESS_SECONDS + 1) * 1000));
  assert.equal(await graphqlStatus(String(first['accessToken'])), null, 'the first access token expired on the server');
  const answered = api();
  assert.equal(answered.status, 0, answered.stderr);
  assert.match(answered.stdout, /"username": "alice"/);
  const second = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  assert.notEqual(second['accessToken'], first['accessToken']);
  assert.notEqual(second['refreshToken'], first['refreshToken']);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(await graphqlStatus(String(second['accessToken'])), 'alice');
});

it('quarry login reports a denied approval and saves nothing new', { timeout: 60_000 }, async () => {
  const denyHome = makeTempDir('quarry-login-deny');
  try {
    const login = spawn(process.execPath, [BIN, 'login', quarry.url], { env: { ...env(), HOME: denyHome } });
    let stderr = '';
    const code = await new Promise<string>((resolve) => login.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /enter the code ([A-Z0-9-]+)/.exec(stderr);
      if (found) resolve(found[1]!);
    }));
    const exited = new Promise<number | null>((resolve) => login.on('exit', resolve));
    const browser = new FormBrowser(quarry.url);
    await browser.signIn();
    const html = await (await browser.get(`/device?user_code=${encodeURIComponent(code)}`)).text();
    await browser.post('/device', { csrf: csrfOf(html), user_code: code, decision: 'deny' });
    assert.notEqual(await exited, 0);
    assert.match(stderr, /denied/);
    assert.throws(() => statSync(join(denyHome, 'src-config.json')));
  } finally {
    removeDir(denyHome);
  }
});
