/**
 * The permission matrix (issue 12): every read path × every principal against a real `quarry
 * serve`. Without access, the hidden repository answers exactly as a missing one and site-wide
 * answers equal those of a server that never had it; readers see its data; sudo answers as its user.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSchema } from '../../src/api/graphql/schema.js';
import { IMPLEMENTED, toolsFor } from '../../src/api/mcp/registry.js';
import { blind, Door, type Answer } from './permission-matrix/doors.js';
import { selectedNames } from './permission-matrix/graphql-documents.js';
import { ADMIN, PRINCIPALS, principalNamed, type Principal } from './permission-matrix/principals.js';
import { READ_PATHS, type ReadPath } from './permission-matrix/read-paths.js';
import { ANONYMOUS, buildWorld, NOPE, OPEN, SECRET, type Instance, type World } from './permission-matrix/world.js';

let world: World;
let site: Principal['site'] = 'private';
const doors = new Map<string, Door>();
const answers = new Map<string, Promise<Answer>>();

function doorOf(instance: Instance, account: string): Door {
  const key = `${instance.name}\0${account}`;
  let door = doors.get(key);
  if (door === undefined) {
    const credential = account === 'anonymous' ? ANONYMOUS : instance.credentials.get(account);
    assert.ok(credential, `${instance.name} has no account ${account}`);
    door = new Door(instance, credential);
    doors.set(key, door);
  }
  return door;
}

/** One answer, asked once per server, account, site mode, path and repository. */
function ask(instance: Instance, who: Pick<Principal, 'account' | 'site'>, path: ReadPath, repo: string): Promise<Answer> {
  const key = [instance.name, who.account, who.site, path.name, repo].join('\0');
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = path.run(doorOf(instance, who.account), repo);
    answers.set(key, answer);
  }
  return answer;
}

const onReference = (p: Principal): Pick<Principal, 'account' | 'site'> => ({ account: p.referenceAccount, site: p.site });

/**
 * Anonymous callers meet 401 at MCP always and at every other door on a private site; a repository
 * page the caller may not read is 404, as a missing repository's is (the APIs answer 200 with nothing).
 */
function doorStatus(path: ReadPath, principal: Principal): number {
  if (principal.account === 'anonymous' && (path.door === 'mcp' || principal.site === 'private')) return 401;
  return path.door === 'page' && path.scope === 'repository' && !principal.reads ? 404 : 200;
}

async function hiddenAnswersLikeMissing(path: ReadPath, principal: Principal): Promise<Answer[]> {
  const [hidden, missing] = await Promise.all([ask(world.main, principal, path, SECRET), ask(world.main, principal, path, NOPE)]);
  assert.equal(hidden.status, doorStatus(path, principal), hidden.text);
  if (principal.reads) {
    assert.match(hidden.text, path.reveals);
    assert.notDeepEqual(blind(hidden, SECRET), blind(missing, NOPE), 'a reader tells the repository from a missing one');
    assert.deepEqual(hidden, await ask(world.main, ADMIN, path, SECRET), 'every reader gets what the site admin gets');
  } else {
    assert.deepEqual(blind(hidden, SECRET), blind(missing, NOPE), 'the hidden repository answers exactly like a missing one');
  }
  return [hidden, missing];
}

async function siteAnswersWithoutHidden(path: ReadPath, principal: Principal): Promise<Answer[]> {
  const [seen, without] = await Promise.all([ask(world.main, principal, path, OPEN), ask(world.reference, onReference(principal), path, OPEN)]);
  assert.equal(seen.status, doorStatus(path, principal), seen.text);
  if (principal.reads) {
    assert.match(seen.text, path.reveals);
    assert.notDeepEqual(seen, without, 'the hidden repository adds to what a reader sees');
    assert.deepEqual(seen, await ask(world.main, ADMIN, path, OPEN), 'every reader gets what the site admin gets');
  } else {
    assert.deepEqual(seen, without, 'the answer is the one of a server that never had the hidden repository');
  }
  return [seen];
}

async function noRepositoryData(path: ReadPath, principal: Principal): Promise<Answer[]> {
  const seen = await ask(world.main, principal, path, OPEN);
  assert.equal(seen.status, path.status!({ anonymous: principal.account === 'anonymous', admin: principal.account === 'admin' }), seen.text);
  assert.doesNotMatch(seen.text, /example\.com|classified/, 'no repository name or content');
  if (seen.status === 200) assert.match(seen.text, path.reveals);
  if (!principal.reads) assert.deepEqual(seen, await ask(world.reference, onReference(principal), path, OPEN));
  return [seen];
}

const CHECKS: Record<ReadPath['scope'], (path: ReadPath, principal: Principal) => Promise<Answer[]>> = {
  repository: hiddenAnswersLikeMissing,
  site: siteAnswersWithoutHidden,
  global: noRepositoryData,
};

async function checkCell(path: ReadPath, principal: Principal): Promise<void> {
  const seen = await CHECKS[path.scope](path, principal);
  if (principal.actsAs === undefined) return;
  const user = principalNamed(principal.actsAs);
  const repos = path.scope === 'repository' ? [SECRET, NOPE] : [OPEN];
  const theirs = await Promise.all(repos.map((repo) => ask(world.main, user, path, repo)));
  assert.deepEqual(seen, theirs, `sudo answers exactly as ${user.name}`);
}

before(async () => {
  world = await buildWorld();
});

after(async () => {
  for (const door of doors.values()) await door.close();
  // undefined when building the world failed: that failure is the one to report.
  await world?.close();
});

describe('the matrix covers every read path', () => {
  it('has a path for every MCP tool the /.api/mcp/all endpoint lists', async () => {
    const listed = await doorOf(world.main, 'admin').mcpTools();
    assert.deepEqual(listed, toolsFor('all', { disableDeepsearchTool: false }, IMPLEMENTED).map((t) => t.name).sort());
    const covered = new Set(READ_PATHS.map((p) => p.tool));
    assert.deepEqual(listed.filter((tool) => !covered.has(tool)), []);
  });

  it('selects every GraphQL field that reads repository data', () => {
    const schema = createSchema();
    const selected = new Set(READ_PATHS.flatMap((p) => (p.document ? [...selectedNames(p.document)] : [])));
    // Accounts and site settings hold no repository data (oauthApplications: admin only, refused to others in test/api/graphql/oauth-apps.test.ts).
    const accountFields = new Set(['currentUser', 'user', 'users', 'roles', 'site', 'oauthApplications']);
    const missing = Object.keys(schema.getQueryType()!.getFields()).filter((f) => !accountFields.has(f) && !selected.has(f)).map((f) => `Query.${f}`);
    for (const type of reachableTypes(schema, ['Repository', 'SearchResults'])) {
      for (const field of Object.keys(type.getFields!())) if (!selected.has(field)) missing.push(`${type.name}.${field}`);
    }
    assert.deepEqual(missing, []);
  });
});

interface WalkedType {
  readonly name: string;
  getFields?(): Record<string, { readonly type: unknown }>;
  getTypes?(): readonly WalkedType[];
}

/** Object types reachable through fields and unions from the roots, without importing graphql here. */
function reachableTypes(schema: ReturnType<typeof createSchema>, roots: readonly string[]): WalkedType[] {
  const seen = new Map<string, WalkedType>();
  const visit = (type: WalkedType): void => {
    if (seen.has(type.name)) return;
    if (type.getTypes) return type.getTypes().forEach(visit);
    if (!type.getFields) return;
    seen.set(type.name, type);
    for (const field of Object.values(type.getFields())) {
      let inner = field.type as { ofType?: unknown };
      while (inner.ofType) inner = inner.ofType as { ofType?: unknown };
      visit(inner as WalkedType);
    }
  };
  for (const root of roots) visit(schema.getType(root) as unknown as WalkedType);
  return [...seen.values()];
}

for (const principal of PRINCIPALS) {
  describe(principal.name, () => {
    before(async () => {
      if (site === principal.site) return;
      await Promise.all([world.main.setPublic(principal.site === 'public'), world.reference.setPublic(principal.site === 'public')]);
      site = principal.site;
    });
    for (const path of READ_PATHS) it(`${path.name} × ${principal.name}`, () => checkCell(path, principal));
  });
}
