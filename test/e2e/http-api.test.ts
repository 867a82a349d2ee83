/**
 * The server end to end: a real `quarry serve` process over a real data directory, reached over
 * loopback HTTP: authentication and its refusals, sudo, scopes, repository restrictions in every
 * read path (GraphQL, stream, src-compatible CLI), cost limits, bad bodies, stale configuration.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { freshRequest } from './fresh-request.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const BIN = fileURLToPath(new URL('../../../bin/quarry.js', import.meta.url));
const dirs: string[] = [];
let data = '';
let server: ServerProcess;
let admin = '';
let alice = '';
let mcpOnly = '';

function quarry(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function repo(name: string, files: Record<string, string>): void {
  const dir = makeTempDir('quarry-http-src');
  dirs.push(dir);
  initRepo(dir);
  writeFiles(dir, files);
  commitAll(dir, 'initial');
  assert.equal(quarry(['repos', 'add', name, dir, '--data', data]).status, 0);
}

/**
 * On a connection of its own: the CLI runs between requests block this process's event loop, so a
 * pooled connection the server closed as idle meanwhile would be reused and fail.
 */
async function graphql(query: string, token: string | null, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const answer = await freshRequest(`${server.url}/.api/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `token ${token}` } : {}), ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: answer.status, text: answer.body };
}

const json = (r: { text: string }): any => JSON.parse(r.text);

before(async () => {
  data = makeTempDir('quarry-http-data');
  repo('github.com/acme/open', { 'router.go': 'package open\n\nfunc Router() {}\n' });
  repo('github.com/acme/secret', { 'plan.go': 'package secret\n\nfunc Router() {} // secret plan\n' });
  assert.equal(quarry(['index', '--data', data]).status, 0);
  server = await startServerProcess(data);
  assert.ok(server.adminToken, 'the first start prints an admin token');
  admin = server.adminToken!;
  assert.equal(quarry(['users', 'create', 'alice', '--email', 'alice@example.com', '--data', data]).status, 0);
  alice = quarry(['tokens', 'create', 'alice', '--data', data]).stdout.trim();
  mcpOnly = quarry(['tokens', 'create', 'alice', '--scopes', 'mcp', '--data', data]).stdout.trim();
  assert.equal(quarry(['repos', 'restrict', 'github.com/acme/secret', '--data', data]).status, 0);
  // Anonymous callers are part of these tests: a public instance serves them (private: test/e2e/edge.test.ts).
  const publicConfig = join(data, 'public.jsonc');
  writeFileSync(publicConfig, '{"auth.public": true}');
  assert.equal(quarry(['config', 'set', publicConfig, '--data', data]).status, 0);
});

after(async () => {
  assert.equal(await server.stop(), 0, 'SIGTERM shuts the server down cleanly');
  for (const d of [...dirs, data]) removeDir(d);
});

describe('authentication', () => {
  it('knows the caller by token, and anonymous callers as nobody', async () => {
    assert.equal(json(await graphql('{ currentUser { username siteAdmin } }', admin)).data.currentUser.username, 'admin');
    assert.deepEqual(json(await graphql('{ currentUser { username siteAdmin } }', alice)).data.currentUser, { username: 'alice', siteAdmin: false });
    assert.equal(json(await graphql('{ currentUser { username } }', null)).data.currentUser, null);
  });

  it('accepts the token as Bearer and as ?token= too', async () => {
    assert.equal(json(await graphql('{ currentUser { username } }', null, {}, { Authorization: `Bearer ${alice}` })).data.currentUser.username, 'alice');
    const viaQuery = await fetch(`${server.url}/.api/graphql?token=${alice}`, { method: 'POST', body: JSON.stringify({ query: '{ currentUser { username } }' }) });
    assert.equal((await viaQuery.json() as any).data.currentUser.username, 'alice');
  });

  it('answers bad credentials with the exact 401 and 403 texts', async () => {
    assert.deepEqual(await graphql('{ currentUser { username } }', `sgp_local_${'0'.repeat(40)}`), { status: 401, text: 'Invalid access token.\n' });
    assert.deepEqual(await graphql('{ currentUser { username } }', null, {}, { Authorization: 'token' }), { status: 401, text: 'Invalid Authorization header.\n' });
    assert.deepEqual(await graphql('{ currentUser { username } }', mcpOnly), { status: 401, text: 'Invalid access token.\n' }, 'a token without user:all');
    const stream = await fetch(`${server.url}/.api/search/stream?q=Router`, { headers: { Authorization: `token ${mcpOnly}`, Accept: 'text/event-stream' } });
    assert.deepEqual([stream.status, await stream.text()], [401, 'Invalid access token.\n']);
  });

  it('lets a sudo token act as another user, and refuses sudo to nobody', async () => {
    const asAlice = await graphql('{ currentUser { username } }', null, {}, { Authorization: `token-sudo user="alice",token="${admin}"` });
    assert.equal(json(asAlice).data.currentUser.username, 'alice');
    const nobody = await graphql('{ currentUser { username } }', null, {}, { Authorization: `token-sudo user="nobody",token="${admin}"` });
    assert.deepEqual(nobody, { status: 403, text: 'Unable to sudo to nonexistent user.\n' });
    const notSudo = await graphql('{ currentUser { username } }', null, {}, { Authorization: `token-sudo user="admin",token="${alice}"` });
    assert.equal(notSudo.status, 401);
  });
});

describe('repository restrictions in every read path', () => {
  const search = '{ search(query: "Router", patternType: literal) { results { matchCount results { ... on FileMatch { repository { name } } } } } }';

  it('GraphQL search and repository lookups hide the restricted repository from alice, not from admins', async () => {
    const mine = json(await graphql(search, alice)).data.search.results;
    assert.deepEqual(mine.results.map((r: any) => r.repository.name), ['github.com/acme/open']);
    const all = json(await graphql(search, admin)).data.search.results;
    assert.deepEqual(all.results.map((r: any) => r.repository.name).sort(), ['github.com/acme/open', 'github.com/acme/secret']);
    assert.equal(json(await graphql('{ repository(name: "github.com/acme/secret") { name } }', alice)).data.repository, null);
  });

  it('the streaming API hides it too', async () => {
    const response = await fetch(`${server.url}/.api/search/stream?q=Router`, { headers: { Authorization: `token ${alice}`, Accept: 'text/event-stream' } });
    const text = await response.text();
    assert.match(text, /github\.com\/acme\/open/);
    assert.doesNotMatch(text, /acme\/secret/);
    assert.match(text, /event: done\ndata: \{\}\n\n$/);
  });

  it('the src-compatible CLI searches through GraphQL and the stream as the token holder', () => {
    const env = { SRC_ENDPOINT: server.url, SRC_ACCESS_TOKEN: alice };
    const remote = quarry(['search', '--remote', 'Router'], env);
    assert.equal(remote.status, 0, remote.stderr);
    assert.match(remote.stdout, /github\.com\/acme\/open › router\.go/);
    assert.doesNotMatch(remote.stdout, /secret/);
    const stream = quarry(['search', '--stream', '--json', 'Router'], env);
    assert.equal(stream.status, 0, stream.stderr);
    assert.match(stream.stdout, /"path":"router\.go"/);
    const api = quarry(['api', '-query', 'query($u: String!) { user(username: $u) { username } }', 'u=alice'], env);
    assert.deepEqual(JSON.parse(api.stdout), { data: { user: { username: 'alice' } } });
  });
});

describe('changes take effect without a restart', () => {
  it('a role granted on a restricted repository makes it visible to its holder at once', async () => {
    const search = '{ search(query: "Router", patternType: literal) { results { results { ... on FileMatch { repository { name } } } } } }';
    assert.equal(quarry(['roles', 'create', 'planners', '--permissions', 'MCP#ACCESS', '--data', data]).status, 0);
    assert.equal(quarry(['repos', 'restrict', 'github.com/acme/secret', '--roles', 'planners', '--data', data]).status, 0);
    assert.equal(quarry(['roles', 'assign', 'alice', 'planners', '--data', data]).status, 0);
    const granted = json(await graphql(search, alice)).data.search.results.results.map((r: any) => r.repository.name).sort();
    assert.deepEqual(granted, ['github.com/acme/open', 'github.com/acme/secret']);
    assert.equal(quarry(['roles', 'unassign', 'alice', 'planners', '--data', data]).status, 0);
    const revoked = json(await graphql(search, alice)).data.search.results.results.map((r: any) => r.repository.name);
    assert.deepEqual(revoked, ['github.com/acme/open']);
  });

  it('a search limit set in the site configuration applies to the next search', async () => {
    const update = 'mutation ($id: Int!, $input: String!) { updateSiteConfiguration(lastID: $id, input: $input) }';
    const search = '{ search(query: "func", patternType: literal) { results { matchCount limitHit } } }';
    assert.deepEqual(json(await graphql(search, admin)).data.search.results, { matchCount: 2, limitHit: false });
    const id = json(await graphql('{ site { configuration { id } } }', admin)).data.site.configuration.id as number;
    assert.deepEqual(json(await graphql(update, admin, { id, input: '{"search.limits.maxResults": 1}' })).data, { updateSiteConfiguration: false });
    assert.deepEqual(json(await graphql(search, admin)).data.search.results, { matchCount: 1, limitHit: true });
    assert.deepEqual(json(await graphql(update, admin, { id: id + 1, input: '{}' })).data, { updateSiteConfiguration: false });
  });
});

describe('limits and bad input', () => {
  it('refuses a query over a cost limit with 403 and the documented body', async () => {
    const nested = (levels: number): string => `{ repository(name: "github.com/acme/open") { ${'commit(rev: "HEAD") { repository { '.repeat(levels)} name ${'} } '.repeat(levels)} } }`;
    assert.equal((await graphql(nested(2), admin)).status, 200);
    assert.deepEqual(await graphql(nested(16), admin), { status: 403, text: '{"errors":[{"message":"query exceeds maximum query cost"}]}' });
    const aliases = `{ ${Array.from({ length: 501 }, (_, i) => `a${i}: currentUser { username }`).join(' ')} }`;
    assert.deepEqual(await graphql(aliases, admin), { status: 403, text: '{"errors":[{"message":"query exceeds maximum query cost"}]}' });
  });

  it('applies each cost limit of the site configuration to the next request', async () => {
    const update = 'mutation ($id: Int!, $input: String!) { updateSiteConfiguration(lastID: $id, input: $input) }';
    const id = json(await graphql('{ site { configuration { id } } }', admin)).data.site.configuration.id as number;
    const limits = '{"rateLimits": {"graphQLMaxFieldCount": 40, "graphQLMaxDuplicateFieldCount": 1, "graphQLMaxUniqueFieldCount": 12}}';
    assert.deepEqual(json(await graphql(update, admin, { id, input: limits })).data, { updateSiteConfiguration: false });
    const refused = { status: 403, text: '{"errors":[{"message":"query exceeds maximum query cost"}]}' };
    assert.equal((await graphql('{ currentUser { username } }', admin)).status, 200);
    assert.deepEqual(await graphql('{ currentUser { username username username } }', admin), refused, 'duplicate fields');
    assert.deepEqual(await graphql('{ currentUser { id username email displayName url createdAt siteAdmin databaseID permissions } site { siteID buildVersion productVersion } }', admin), refused, 'unique fields');
    assert.deepEqual(await graphql('{ users(first: 100) { nodes { username } } }', admin), refused, 'field count with list multipliers');
    assert.deepEqual(json(await graphql(update, admin, { id: id + 1, input: '{}' })).data, { updateSiteConfiguration: false });
    assert.equal((await graphql('{ users(first: 100) { nodes { username } } }', admin)).status, 200);
  });

  it('answers malformed JSON and oversized bodies with 4xx and keeps serving', async () => {
    const malformed = await fetch(`${server.url}/.api/graphql`, { method: 'POST', headers: { Authorization: `token ${admin}` }, body: '{"query": ' });
    assert.equal(malformed.status, 400);
    const huge = await fetch(`${server.url}/.api/graphql`, { method: 'POST', headers: { Authorization: `token ${admin}` }, body: 'x'.repeat(11 * 1024 * 1024) }).catch(() => null);
    if (huge) assert.equal(huge.status, 413);
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    assert.equal(json(await graphql('{ currentUser { username } }', admin)).data.currentUser.username, 'admin');
  });

  it('refuses a stale site configuration write with a clear message', async () => {
    const update = 'mutation ($id: Int!, $input: String!) { updateSiteConfiguration(lastID: $id, input: $input) }';
    const current = json(await graphql('{ site { configuration { id } } }', admin)).data.site.configuration.id as number;
    assert.deepEqual(json(await graphql(update, admin, { id: current, input: '{"search.defaultTimeoutSeconds": 5}' })).data, { updateSiteConfiguration: false });
    const stale = json(await graphql(update, admin, { id: current, input: '{}' }));
    assert.match(stale.errors[0].message, /changed since revision/);
  });
});
