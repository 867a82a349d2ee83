/**
 * A real `quarry serve` for the OAuth tests: the MCP fixture's indexed repository, short access
 * tokens (so refresh is exercised) and a person with a password, alice, made through the CLI as an
 * operator would. Also a cookie-keeping HTTP client that signs in and answers consent pages the
 * way a browser without JavaScript would, for the security tests.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startQuarry, type QuarryFixture } from '../mcp/quarry-fixture.js';

const BIN = fileURLToPath(new URL('../../../../bin/quarry.js', import.meta.url));

export const ALICE = { username: 'alice', password: 'correct horse battery staple' } as const;

export interface OAuthFixture extends QuarryFixture {
  quarry(args: readonly string[], input?: string): { status: number | null; stdout: string; stderr: string };
  /** Writes the site configuration (JSON with comments) through `quarry config set`. */
  setConfig(document: Record<string, unknown>): void;
}

export async function startOAuthQuarry(config: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = process.env): Promise<OAuthFixture> {
  const fixture = await startQuarry(env);
  const data = fixture.dataDir;
  const quarry = (args: readonly string[], input?: string) => {
    const run = spawnSync(process.execPath, [BIN, ...args, '--data', data], { encoding: 'utf8', input });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  const setConfig = (document: Record<string, unknown>): void => {
    const file = join(data, `site-${Date.now()}-${Math.random().toString(36).slice(2)}.jsonc`);
    writeFileSync(file, JSON.stringify(document));
    const set = quarry(['config', 'set', file]);
    assert.equal(set.status, 0, set.stderr);
  };
  const created = quarry(['users', 'create', ALICE.username, '--email', 'alice@example.com', '--password-stdin'], `${ALICE.password}\n`);
  assert.equal(created.status, 0, created.stderr);
  setConfig(config);
  return { ...fixture, quarry, setConfig };
}

/** A browser without JavaScript: keeps cookies, follows nothing by itself, posts forms it read. */
export class FormBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(readonly origin: string, private readonly headers: Record<string, string> = {}) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  async get(path: string): Promise<Response> {
    return this.send(path, { method: 'GET' });
  }

  async post(path: string, form: Record<string, string>, extraHeaders: Record<string, string> = {}): Promise<Response> {
    return this.send(path, { method: 'POST', body: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...extraHeaders } });
  }

  /** Signs in through the sign-in page; returns the final answer (303 on success, or at once when already signed in). */
  async signIn(username: string = ALICE.username, password: string = ALICE.password, returnTo = '/settings'): Promise<Response> {
    const page = await this.get(`/sign-in?return_to=${encodeURIComponent(returnTo)}`);
    if (page.status === 303) return page;
    const csrf = csrfOf(await page.text());
    return this.post('/sign-in', { csrf, username, password, return_to: returnTo });
  }

  private async send(path: string, init: { method: string; body?: string; headers?: Record<string, string> }): Promise<Response> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(path.startsWith('http') ? path : `${this.origin}${path}`, {
      ...init, redirect: 'manual', headers: { ...this.headers, ...(init.headers ?? {}), ...(cookie === '' ? {} : { cookie }) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/Max-Age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

/** The CSRF token of the (first) form on a page. */
export function csrfOf(page: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  assert.ok(token, `no CSRF field on the page:\n${page.slice(0, 2000)}`);
  return token;
}

/** Every hidden field of the first form posting to `action`. */
export function hiddenFields(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]!] = match[2]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  }
  return fields;
}
