/**
 * What GraphQL and the stream API tell anonymous and ordinary callers of a real server when their
 * input is odd or git fails: Sourcegraph-style answers (null, "revision not found", a fixed text
 * for server-side failures) and never the data directory or git's stderr. Repository ids are
 * random, and a hidden repository's node id answers exactly like one that does not exist.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeId } from '../../../src/api/graphql/ids.js';
import { BROKEN, OPEN, SECRET, startServedQuarry, type ServedQuarry } from '../served-quarry.js';

let served: ServedQuarry;
const bodies: string[] = [];

before(async () => {
  served = await startServedQuarry();
});

after(async () => {
  for (const body of bodies) {
    assert.ok(!body.includes(served.dataDir), body.slice(0, 300));
    assert.ok(!/fatal:|git ls-tree|git log|outside repository/.test(body), body.slice(0, 300));
  }
  await served.close();
});

async function graphql(query: string, variables: Record<string, unknown> = {}, token: string | null = null): Promise<any> {
  const response = await fetch(`${served.url}/.api/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token === null ? {} : { Authorization: `token ${token}` }) },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  bodies.push(text);
  assert.equal(response.status, 200, text);
  return JSON.parse(text);
}

const ODD_PATHS = ['..', '../x', 'src/../../etc', ':(glob)*', ':(top)README.md', ':/', '*.md', 'a\u0000b', '/', '//', '-r', 'x'.repeat(70_000)];
const ODD_REVISIONS = ['--output=/tmp/quarry-leak', 'main@{0}', '@{-1}', 'main~1..main', 'HEAD:README.md', ':/version', 'main\u0000', '-n', 'r'.repeat(70_000)];

describe('GraphQL given odd paths and revisions', () => {
  it('answers a blob or tree at a path no tree holds with null, for anonymous callers too', async () => {
    const query = 'query($p: String!) { repository(name: "github.com/acme/open") { commit(rev: "main") { blob(path: $p) { content } tree(path: $p) { url } } } }';
    for (const path of ODD_PATHS) {
      const answer = await graphql(query, { p: path });
      const tree = path === '/' || path === '//' ? { url: `/${OPEN}@${served.commits[1]}/-/tree/` } : null;
      assert.deepEqual(answer, { data: { repository: { commit: { blob: null, tree } } } }, path.slice(0, 40));
    }
  });

  it('answers ancestors touching an impossible path with none', async () => {
    const query = 'query($p: String!) { repository(name: "github.com/acme/open") { commit(rev: "main") { ancestors(first: 5, path: $p) { nodes { oid } } } } }';
    for (const path of ['..', '../x', ':(glob)**', 'a\u0000b']) {
      assert.deepEqual(await graphql(query, { p: path }), { data: { repository: { commit: { ancestors: { nodes: [] } } } } }, path);
    }
    const real = await graphql(query, { p: 'src/app.ts' });
    assert.deepEqual(real.data.repository.commit.ancestors.nodes.map((n: { oid: string }) => n.oid), [...served.commits].reverse());
  });

  it('answers a revision that is no single commit as a null commit, and comparisons with revision not found', async () => {
    for (const rev of ODD_REVISIONS) {
      assert.deepEqual(await graphql('query($r: String!) { repository(name: "github.com/acme/open") { commit(rev: $r) { oid } } }', { r: rev }), { data: { repository: { commit: null } } }, rev.slice(0, 40));
    }
    const compared = await graphql('{ repository(name: "github.com/acme/open") { comparison(base: "main~1..main", head: "main") { fileDiffs { totalCount } } } }');
    assert.deepEqual(compared.errors.map((e: { message: string; extensions: unknown }) => [e.message, e.extensions]), [[
      `Revision not found: "main~1..main" (it is a range ("..") where one revision is expected) in ${OPEN}. Pass a branch, tag or commit that exists.`,
      { code: 'REVISION_NOT_FOUND' },
    ]]);
  });
});

describe('GraphQL and the stream API when git itself fails', () => {
  it('say that git failed, with the code, and nothing of git\'s own message', async () => {
    const restore = served.breakMirror();
    try {
      const answer = await graphql('{ repository(name: "github.com/acme/broken") { branches { nodes { name } } commit(rev: "main") { oid } } }');
      const errors = answer.errors.map((e: { message: string; path: string[]; extensions: unknown }) => [e.message, e.path, e.extensions]);
      assert.deepEqual(errors.sort((a: string[][], b: string[][]) => (a[1]![1]! < b[1]![1]! ? -1 : 1)), [
        ['git failed to read the repository', ['repository', 'branches'], { code: 'GIT_FAILED' }],
        ['git failed to read the repository', ['repository', 'commit'], { code: 'GIT_FAILED' }],
      ]);
      const stream = await fetch(`${served.url}/.api/search/stream?q=${encodeURIComponent(`repo:^${BROKEN.replaceAll('.', '\\.')}$@main~0 broken`)}`);
      const events = await stream.text();
      bodies.push(events);
      assert.match(events, /event: error\ndata: {"message":"git failed to read the repository"}/);
    } finally {
      restore();
    }
  });
});

describe('repository ids', () => {
  const decode = (id: string): number => Number(Buffer.from(id, 'base64').toString('utf8').replace(/^Repository:/, ''));

  it('are random: no two repositories added in a row have neighbouring ids', async () => {
    const answer = await graphql('{ repositories(first: 10) { nodes { id name } } }', {}, served.admin);
    const ids = answer.data.repositories.nodes.map((n: { id: string }) => decode(n.id));
    assert.equal(ids.length, 3);
    for (const id of ids) assert.ok(Number.isSafeInteger(id) && id > 0 && id < 2 ** 31, String(id));
    for (const a of ids) for (const b of ids) assert.notEqual(Math.abs(a - b), 1);
  });

  it('answer a hidden repository\'s node id exactly like an id no repository has', async () => {
    const secretId = (await graphql(`{ repository(name: "${SECRET}") { id } }`, {}, served.admin)).data.repository.id as string;
    const taken = new Set(((await graphql('{ repositories(first: 10) { nodes { id } } }', {}, served.admin)).data.repositories.nodes as { id: string }[]).map((n) => decode(n.id)));
    let free = 1;
    while (taken.has(free)) free++;
    const node = 'query($id: ID!) { node(id: $id) { id ... on Repository { name } } }';
    for (const token of [null, served.alice]) {
      const hidden = await graphql(node, { id: secretId }, token);
      assert.deepEqual(hidden, { data: { node: null } });
      assert.deepEqual(await graphql(node, { id: encodeId('Repository', free) }, token), hidden);
      assert.deepEqual(await graphql(`{ repository(name: "${SECRET}") { id } }`, {}, token), await graphql('{ repository(name: "github.com/acme/none") { id } }', {}, token));
    }
    assert.deepEqual(await graphql(node, { id: secretId }, served.admin), { data: { node: { id: secretId, name: SECRET } } });
  });
});
