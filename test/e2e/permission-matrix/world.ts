/**
 * The world of the permission matrix: two real git repositories with history, a `quarry serve`
 * where one of them is restricted to alice and the `auditors` role, and a reference server that
 * never had the restricted one. Accounts, roles, tokens and the restriction are made with the CLI.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { initRepo, makeTempDir, removeDir, writeFiles } from '../../git/fixtures.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';

const BIN = fileURLToPath(new URL('../../../../bin/quarry.js', import.meta.url));

export const OPEN = 'example.com/open';
export const SECRET = 'example.com/secret';
/** Never added anywhere: what every hidden answer must look like. */
export const NOPE = 'example.com/nope';

export type Credential = { readonly kind: 'anonymous' } | { readonly kind: 'token'; readonly token: string } | { readonly kind: 'sudo'; readonly token: string; readonly user: string };

export const ANONYMOUS: Credential = { kind: 'anonymous' };

export interface Instance {
  readonly name: 'main' | 'reference';
  readonly url: string;
  /** Repository ids by name as the server issued them; NOPE gets an id the server never issued. */
  readonly ids: ReadonlyMap<string, number>;
  /** Credentials by account: admin, bob (both servers), alice, carol, sudo tokens (main only). */
  readonly credentials: ReadonlyMap<string, Credential>;
  /** Writes the site setting `auth.public` with the CLI, as an operator would, without a restart. */
  setPublic(on: boolean): Promise<void>;
}

export interface World {
  readonly main: Instance;
  readonly reference: Instance;
  close(): Promise<void>;
}

const GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env, GIT_AUTHOR_NAME: 'Quarry Test', GIT_AUTHOR_EMAIL: 'test@quarry.invalid', GIT_COMMITTER_NAME: 'Quarry Test',
  GIT_COMMITTER_EMAIL: 'test@quarry.invalid', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
};

/** Commits with fixed dates, so both servers (and every run) see byte-identical history. */
function commit(dir: string, message: string, day: number): void {
  const date = `2024-03-${String(day).padStart(2, '0')}T12:00:00Z`;
  const env = { ...GIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  execFileSync('git', ['add', '--all'], { cwd: dir, env });
  execFileSync('git', ['commit', '--quiet', '-m', message], { cwd: dir, env });
}

function git(dir: string, ...args: string[]): void {
  execFileSync('git', args, { cwd: dir, env: GIT_ENV });
}

/** Three commits on main, tag v1 at the first, branch `feature` off the second with one more. */
function buildRepo(dir: string, versions: readonly Record<string, string>[], feature: Record<string, string>, messages: readonly string[]): void {
  initRepo(dir);
  versions.forEach((files, i) => {
    writeFiles(dir, files);
    commit(dir, messages[i]!, i + 1);
    if (i === 0) git(dir, 'tag', 'v1');
    if (i === 1) git(dir, 'branch', 'feature');
  });
  git(dir, 'checkout', '--quiet', 'feature');
  writeFiles(dir, feature);
  commit(dir, messages[3]!, 10);
  git(dir, 'checkout', '--quiet', 'main');
}

/**
 * A rare term once and a common term three times: which file nls_search ranks first depends on
 * the collection size in BM25's idf, so a size that counted hidden files would show in the order.
 */
const RANKED_DOCS = {
  'docs/one.md': 'The cache is warm.\n',
  'docs/two.md': 'Limits apply per caller.\nLimits reset every minute.\nLimits are configurable.\n',
  'docs/three.md': 'Which limits exist?\n',
};

function openRepo(dir: string): void {
  buildRepo(dir, [
    {
      'README.md': '# Open\nA public router.\n',
      'src/router.ts': 'export function route(path: string): string {\n  return normalize(path);\n}\n',
      'src/app.ts': "import { route } from './router';\n\nexport const home = route('/home');\n",
      ...RANKED_DOCS,
    },
    { 'src/app.ts': "import { route } from './router';\n\nexport const home = route('/home');\nexport const about = route('/about');\n" },
    { 'README.md': '# Open\nA public router.\nEvery path is normalized before it is routed.\n' },
  ], { 'src/contact.ts': "import { route } from './router';\n\nexport const contact = route('/contact');\n" },
  ['Add the router', 'Route the about page', 'Document routing', 'Feature: the contact page']);
}

/** Many small notes, so the restricted repository weighs on any total that counts it. */
const NOTES = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`notes/note-${String(i).padStart(2, '0')}.md`, `Note ${i} of the classified plan.\n`]));

function secretRepo(dir: string): void {
  buildRepo(dir, [
    {
      'plan.ts': "// classified plan\nexport function normalize(path: string): string {\n  return path.toLowerCase();\n}\n\nexport const launch = route('/launch');\n",
      'cache.md': 'The classified cache.\n',
      ...NOTES,
    },
    { 'plan.ts': "// classified plan, revised\nexport function normalize(path: string): string {\n  return path.trim().toLowerCase();\n}\n\nexport const launch = route('/launch');\n" },
    { 'schedule.ts': "export const when = 'classified dawn';\n" },
  ], { 'abort.ts': "export const abort = 'classified abort switch';\n" },
  ['Draft the classified plan', 'Widen the classified plan', 'Schedule the launch', 'Feature: the abort switch']);
}

type Cli = (args: readonly string[], input?: string) => Promise<string>;

/** The `quarry` command on one data directory; resolves to its trimmed standard output. */
function cli(data: string): Cli {
  return (args, input) => new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args, '--data', data], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(stdout.trim()) : reject(new Error(`quarry ${args.join(' ')} exited with ${code}: ${stderr}`))));
    child.stdin.end(input ?? '');
  });
}

async function repositoryIds(url: string, admin: string): Promise<Map<string, number>> {
  const response = await fetch(`${url}/.api/graphql`, { method: 'POST', headers: { Authorization: `token ${admin}` }, body: JSON.stringify({ query: '{ repositories { nodes { id name } } }' }) });
  const { nodes } = ((await response.json()) as { data: { repositories: { nodes: { id: string; name: string }[] } } }).data.repositories;
  const ids = new Map(nodes.map((n) => [n.name, Number(Buffer.from(n.id, 'base64').toString('utf8').split(':')[1])]));
  const unissued = [1, 2, 3].find((id) => ![...ids.values()].includes(id))!;
  ids.set(NOPE, unissued);
  return ids;
}

interface Started {
  readonly instance: Instance;
  readonly server: ServerProcess;
  readonly data: string;
}

async function startInstance(name: Instance['name'], sources: Readonly<Record<string, string>>, accounts: (quarry: Cli, admin: string) => Promise<Map<string, Credential>>): Promise<Started> {
  const data = makeTempDir(`quarry-matrix-${name}`);
  const quarry = cli(data);
  for (const [repo, dir] of Object.entries(sources)) await quarry(['repos', 'add', repo, dir]);
  await quarry(['index']);
  const server = await startServerProcess(data);
  assert.ok(server.adminToken, 'the first start prints the admin token');
  const credentials = await accounts(quarry, server.adminToken);
  credentials.set('admin', { kind: 'token', token: server.adminToken });
  const instance: Instance = {
    name,
    url: server.url,
    ids: await repositoryIds(server.url, server.adminToken),
    credentials,
    setPublic: async (on) => void (await quarry(['config', 'set', '-'], on ? '{ "auth.public": true }' : '{}')),
  };
  return { instance, server, data };
}

async function mainAccounts(quarry: Cli, admin: string): Promise<Map<string, Credential>> {
  for (const user of ['bob', 'alice', 'carol']) await quarry(['users', 'create', user, '--email', `${user}@example.com`]);
  await quarry(['roles', 'create', 'auditors', '--permissions', 'MCP#ACCESS']);
  await quarry(['roles', 'assign', 'carol', 'auditors']);
  await quarry(['repos', 'restrict', SECRET, '--users', 'alice', '--roles', 'auditors']);
  const token = async (user: string, scopes: string): Promise<string> => quarry(['tokens', 'create', user, '--scopes', scopes]);
  const sudo = await token('admin', 'site-admin:sudo');
  assert.notEqual(sudo, admin);
  return new Map<string, Credential>([
    ['bob', { kind: 'token', token: await token('bob', 'user:all') }],
    ['alice', { kind: 'token', token: await token('alice', 'user:all') }],
    ['carol', { kind: 'token', token: await token('carol', 'user:all') }],
    ['sudo-bob', { kind: 'sudo', token: sudo, user: 'bob' }],
    ['sudo-alice', { kind: 'sudo', token: sudo, user: 'alice' }],
  ]);
}

async function referenceAccounts(quarry: Cli): Promise<Map<string, Credential>> {
  await quarry(['users', 'create', 'bob', '--email', 'bob@example.com']);
  return new Map<string, Credential>([['bob', { kind: 'token', token: await quarry(['tokens', 'create', 'bob', '--scopes', 'user:all']) }]]);
}

export async function buildWorld(): Promise<World> {
  const open = makeTempDir('quarry-matrix-open');
  const secret = makeTempDir('quarry-matrix-secret');
  openRepo(open);
  secretRepo(secret);
  const started = await Promise.all([
    startInstance('main', { [OPEN]: open, [SECRET]: secret }, mainAccounts),
    startInstance('reference', { [OPEN]: open }, referenceAccounts),
  ]);
  return {
    main: started[0].instance,
    reference: started[1].instance,
    async close() {
      for (const { server } of started) assert.equal(await server.stop(), 0);
      for (const dir of [open, secret, ...started.map((s) => s.data)]) removeDir(dir);
    },
  };
}
