/**
 * GraphQL `repository.comparison` and `commit.ancestors` over a scripted repository: file diffs
 * and diffStat equal `git diff --numstat base...head`, cursors page, unknown revisions are errors.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { graphql } from 'graphql';
import { createSchema } from '../../src/api/graphql/schema.js';
import type { GraphQLContext, GraphQLServices, RepoInfo } from '../../src/api/graphql/services.js';
import { ANONYMOUS } from '../../src/auth/principal.js';
import { createDiffHistory } from '../../src/history/diff-service.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';
import type { EnginePool } from '../../src/pool/pool.js';
import { git } from '../git/fixtures.js';
import { createDiffRepo, expectNumstat, removeDiffRepo, type DiffRepo } from './diff-fixture.js';

const APP = 'github.com/acme/app';
let repo: DiffRepo;
let pool: EnginePool;
let context: GraphQLContext;
before(() => {
  repo = createDiffRepo();
  pool = createInThreadEnginePool();
  const info: RepoInfo = { id: 1, name: APP, description: '', fork: false, archived: false, private: false, defaultBranch: 'main' };
  const services = {
    repos: { get: (name: string) => (name === APP ? info : null), resolveRevision: async () => repo.oids.merge },
    diffs: createDiffHistory(() => repo.dir, pool),
  } as unknown as GraphQLServices;
  context = { principal: { ...ANONYMOUS, canRead: () => true }, signal: new AbortController().signal, services };
});
after(async () => {
  await pool.close();
  removeDiffRepo(repo);
});

const schema = createSchema();
const run = async (source: string, variableValues: Record<string, unknown>) => JSON.parse(JSON.stringify(await graphql({ schema, source, variableValues, contextValue: context }))) as { data?: unknown; errors?: { message: string }[] };

const COMPARISON = `query($base: String, $head: String, $after: String) { repository(name: "${APP}") { comparison(base: $base, head: $head) {
  fileDiffs(first: 2, after: $after) { totalCount diffStat { added deleted } pageInfo { endCursor hasNextPage }
    nodes { oldPath newPath stat { added deleted } hunks { oldRange { startLine lines } newRange { startLine lines } section body } } } } } }`;

test('comparison file diffs page by cursor and match git diff --numstat', async () => {
  const expected = expectNumstat(repo, repo.oids.c1, repo.oids.merge);
  const seen = new Map<string, [number, number]>();
  let after: string | null = null;
  let stat: unknown = null;
  do {
    const result = await run(COMPARISON, { base: repo.oids.c1, head: 'main', after });
    assert.equal(result.errors, undefined, JSON.stringify(result.errors));
    const diffs = (result.data as any).repository.comparison.fileDiffs;
    assert.equal(diffs.totalCount, expected.size);
    stat = diffs.diffStat;
    for (const node of diffs.nodes) seen.set(node.newPath ?? node.oldPath, [node.stat.added, node.stat.deleted]);
    after = diffs.pageInfo.hasNextPage ? diffs.pageInfo.endCursor : null;
  } while (after !== null);
  for (const [path, value] of expected) assert.deepEqual(seen.get(path), value ?? [0, 0], path);
  const lines = [...expected.values()].filter((v) => v !== null) as [number, number][];
  assert.deepEqual(stat, { added: lines.reduce((n, v) => n + v[0], 0), deleted: lines.reduce((n, v) => n + v[1], 0) });
});

test('hunks carry ranges and bodies; unknown revisions are errors', async () => {
  const result = await run(COMPARISON, { base: repo.oids.c2, head: repo.oids.c3, after: null });
  const nodes = (result.data as any).repository.comparison.fileDiffs.nodes;
  const renamed = nodes.find((n: any) => n.oldPath === 'a.txt');
  assert.deepEqual(renamed.hunks[0].oldRange, { startLine: 2, lines: 3 });
  assert.equal(renamed.hunks[0].body, ' BETA\n gamma\n delta\n+epsilon\n');
  const bad = await run(COMPARISON, { base: 'nope', head: 'main', after: null });
  assert.match(bad.errors?.[0]?.message ?? '', /Revision not found: nope/);
});

test('ancestors list git log from the commit, paged', async () => {
  const source = `query($after: String) { repository(name: "${APP}") { commit(rev: "main") { ancestors(first: 4, afterCursor: $after) { nodes { oid } pageInfo { endCursor hasNextPage } } } } }`;
  const oids: string[] = [];
  let after: string | null = null;
  do {
    const result = await run(source, { after });
    assert.equal(result.errors, undefined, JSON.stringify(result.errors));
    const page = (result.data as any).repository.commit.ancestors;
    oids.push(...page.nodes.map((n: any) => n.oid));
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after !== null);
  assert.deepEqual(oids, git(repo.dir, 'log', '--format=%H', repo.oids.merge).split('\n'));
});
