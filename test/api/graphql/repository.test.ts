/**
 * Repository browsing through GraphQL over real git mirrors: refs, commits, blobs, trees,
 * cursor pagination, node ids, and a restricted repository that looks exactly like a missing one.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { encodeId } from '../../../src/api/graphql/ids.js';
import { getRepo } from '../../../src/store/repos.js';
import { createGraphQLFixture, SECRET_REPO, type GraphQLFixture } from './fixture.js';
import { REPOSITORIES_PAGE_QUERY } from './src-search-query.js';

let fx: GraphQLFixture;
before(async () => { fx = await createGraphQLFixture(); });
after(async () => { await fx.close(); });

const REPO_QUERY = `query ($name: String!, $path: String!) {
  repository(name: $name) {
    name url isPrivate isFork isArchived description
    defaultBranch { name displayName abbrevName target { oid commit { oid } } }
    branches(first: 10) { totalCount nodes { name } }
    tags(first: 10) { totalCount nodes { name } }
    commit(rev: "HEAD") {
      oid abbreviatedOID message subject
      author { person { name email displayName } date }
      blob(path: $path) { path name content byteSize binary }
      tree(path: "") { entries(first: 10) { path name isDirectory url } }
      missing: blob(path: "no/such/file") { path }
    }
  }
}`;

test('repository, default branch, commit, blob and tree', async () => {
  const { json } = await fx.post({ query: REPO_QUERY, variables: { name: 'github.com/acme/app', path: 'src/router.ts' } });
  assert.equal(json.errors, undefined);
  const repo = json.data.repository;
  assert.equal(repo.name, 'github.com/acme/app');
  assert.equal(repo.isPrivate, false);
  assert.deepEqual(repo.branches, { totalCount: 1, nodes: [{ name: 'refs/heads/main' }] });
  assert.deepEqual(repo.tags, { totalCount: 0, nodes: [] });
  assert.equal(repo.defaultBranch.name, 'refs/heads/main');
  assert.equal(repo.defaultBranch.abbrevName, 'main');
  const commit = repo.commit;
  assert.equal(repo.defaultBranch.target.oid, commit.oid);
  assert.equal(repo.defaultBranch.target.commit.oid, commit.oid);
  assert.equal(commit.abbreviatedOID, commit.oid.slice(0, 7));
  assert.equal(commit.subject, 'initial github.com/acme/app');
  assert.equal(commit.message, 'initial github.com/acme/app\n\nbody line');
  assert.equal(commit.author.person.displayName, commit.author.person.name);
  assert.match(commit.author.date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(commit.blob, {
    path: 'src/router.ts', name: 'router.ts', binary: false, byteSize: 77,
    content: 'export class Router {\n  route(path: string): string {\n    return path;\n  }\n}\n',
  });
  assert.equal(commit.missing, null);
  assert.deepEqual(commit.tree.entries.map((e: any) => [e.path, e.isDirectory]), [['README.md', false], ['docs', true], ['src', true]]);
  assert.equal(commit.tree.entries[1].url, `/github.com/acme/app@${commit.oid}/-/tree/docs`);
});

test('tree entries of a subdirectory, recursive, and a missing directory', async () => {
  const query = `{ repository(name: "github.com/acme/app") { commit(rev: "main") {
    docs: tree(path: "docs") { isRoot name entries(recursive: true) { path isDirectory } }
    nothing: tree(path: "nope") { name }
  } } }`;
  const { json } = await fx.post({ query });
  const commit = json.data.repository.commit;
  assert.equal(commit.docs.isRoot, false);
  assert.equal(commit.docs.name, 'docs');
  assert.deepEqual(commit.docs.entries, [{ path: 'docs/guide', isDirectory: true }, { path: 'docs/guide/intro.md', isDirectory: false }]);
  assert.equal(commit.nothing, null);
});

test('an unknown revision is a null commit', async () => {
  const { json } = await fx.post({ query: '{ repository(name: "github.com/acme/app") { commit(rev: "no-such-branch") { oid } } }' });
  assert.deepEqual(json, { data: { repository: { commit: null } } });
});

test('a restricted repository is null for other users, exactly like a missing one', async () => {
  const query = '{ a: repository(name: "' + SECRET_REPO + '") { name isPrivate } b: repository(name: "github.com/acme/none") { name } }';
  assert.deepEqual((await fx.post({ query }, fx.alice)).json, { data: { a: null, b: null } });
  assert.deepEqual((await fx.post({ query }, fx.admin)).json, { data: { a: { name: SECRET_REPO, isPrivate: true }, b: null } });
  const secretId = (await fx.post({ query: `{ repository(name: "${SECRET_REPO}") { id } }` }, fx.admin)).json.data.repository.id;
  const node = `{ node(id: "${secretId}") { id ... on Repository { name } } }`;
  assert.deepEqual((await fx.post({ query: node }, fx.alice)).json, { data: { node: null } });
  assert.deepEqual((await fx.post({ query: node }, fx.admin)).json, { data: { node: { id: secretId, name: SECRET_REPO } } });
});

test('repositories pages with opaque cursors and hides restricted repositories', async () => {
  const first = (await fx.post({ query: REPOSITORIES_PAGE_QUERY, variables: { first: 2 } })).json.data.repositories;
  assert.deepEqual(first.nodes.map((n: any) => n.name), ['github.com/acme/app', 'github.com/acme/lib']);
  assert.equal(first.totalCount, 3);
  assert.equal(first.pageInfo.hasNextPage, true);
  assert.equal(Buffer.from(first.pageInfo.endCursor, 'base64').toString(), 'Cursor:github.com/acme/lib');
  const second = (await fx.post({ query: REPOSITORIES_PAGE_QUERY, variables: { first: 2, after: first.pageInfo.endCursor } })).json.data.repositories;
  assert.deepEqual(second.nodes.map((n: any) => n.name), ['github.com/acme/tools']);
  assert.deepEqual(second.pageInfo, { hasNextPage: false, endCursor: first.pageInfo.endCursor.replace(/.*/, Buffer.from('Cursor:github.com/acme/tools').toString('base64')) });
  assert.equal(first.nodes[0].id, encodeId('Repository', getRepo(fx.engine.engine.store, 'github.com/acme/app')!.id));
  const admin = (await fx.post({ query: REPOSITORIES_PAGE_QUERY, variables: { first: 10 } }, fx.admin)).json.data.repositories;
  assert.equal(admin.totalCount, 4);
});

test('repositories filters by query and by names', async () => {
  const query = '{ q: repositories(query: "LI") { nodes { name } } n: repositories(names: ["github.com/acme/tools", "' + SECRET_REPO + '"]) { nodes { name } totalCount } }';
  const { json } = await fx.post({ query });
  assert.deepEqual(json.data.q.nodes, [{ name: 'github.com/acme/lib' }]);
  assert.deepEqual(json.data.n, { nodes: [{ name: 'github.com/acme/tools' }], totalCount: 1 });
});
