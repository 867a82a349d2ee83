/**
 * A cluster of real processes: PostgreSQL, two search nodes (replication 2), a front end, and a
 * single `--role all` server over the same store as the reference. The front end answers the
 * stream API and GraphQL as the single server does (same matches, same order), repository
 * permissions hold through the fan-out, the internal search refuses callers without the cluster
 * secret, `quarry cluster status` shows the members and their shares; a search node killed with -9
 * during a stream of queries fails none and loses no results, and once every owner is gone the
 * answers are partial and name the repositories skipped. Skipped, saying why, without PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { graphqlSearch, matchKeys, postgresMissing, startTestCluster, streamSearch, waitFor, type StreamAnswer, type TestCluster } from '../cluster/cluster-processes.js';
import { GRAPHQL_REPOSITORY, graphqlCall, mcpTool, streamWithContext } from '../cluster/routed-calls.js';

const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
const REPOS = NAMES.map((n) => `github.com/cluster/${n}`);
const MARKER = 'clustermarker';

/** Files that differ per repository, so ranking and merging have something to order. */
function repoFiles(index: number): Record<string, string> {
  const files: Record<string, string> = { 'README.md': `# ${NAMES[index]}\n${MARKER} ${NAMES[index]}\n` };
  for (let f = 0; f < 4 + index; f++) {
    const lines = Array.from({ length: 20 + f * 3 }, (_, l) => ((l * 7 + f + index) % 5 === 0 ? `func needle_${f}_${l}() { return haystack(${l}) }` : `var filler_${l} = ${l * index};`));
    files[`${f % 2 === 0 ? 'src' : 'lib'}/${NAMES[index]}_${f}.${f % 3 === 0 ? 'go' : 'ts'}`] = `${lines.join('\n')}\n`;
  }
  return files;
}

/** The second commit: a definition of haystack, which the first commit's files call (navigation and history have something to find). */
function secondCommit(index: number): Record<string, string> {
  return {
    'README.md': `# ${NAMES[index]}\n${MARKER} ${NAMES[index]}\nsecond revision\n`,
    [`src/${NAMES[index]}_lib.go`]: `package ${NAMES[index]}\n\n// haystack counts for ${NAMES[index]}.\nfunc haystack(n int) int {\n\treturn n + ${index}\n}\n`,
  };
}

/** MCP tool calls a front end runs on the owner of `repo`. */
function routedToolCalls(repo: string, name: string): [string, Record<string, unknown>][] {
  return [
    ['read_file', { repo, path: 'README.md' }],
    ['read_file', { repo, path: 'README.md', revision: 'HEAD~1' }],
    ['read_file', { repo, path: 'no/such/file.txt' }],
    ['list_files', { repo, recursive: true }],
    ['list_refs', { repo }],
    ['go_to_definition', { repo, path: `src/${name}_0.go`, symbol: 'haystack' }],
    ['find_references', { repo, path: `src/${name}_lib.go`, symbol: 'haystack' }],
    ['commit_search', { repos: [repo], messageTerms: ['second'] }],
    ['diff_search', { repos: [repo], pattern: 'haystack' }],
    ['compare_revisions', { repo, base: 'HEAD~1', head: 'HEAD' }],
  ];
}

const QUERIES = [
  'needle count:all',
  'patterntype:regexp needle_[0-3]_1[0-9] count:all',
  'file:\\.go$ haystack count:all',
  'repo:gamma|delta needle count:all',
  `${MARKER} count:all`,
  'filler_7 lang:typescript count:all',
];

describe('a cluster: front end, two search nodes, PostgreSQL', { skip: postgresMissing() ?? false, timeout: 900_000 }, () => {
  let cluster: TestCluster;
  let sources: string;
  let bobToken: string;

  const complete = (a: StreamAnswer): boolean => a.status === 200 && a.done !== null && a.done.skipped.length === 0 && new Set(a.matches.map((m) => m.repository)).size === REPOS.length;

  before(async () => {
    sources = makeTempDir('quarry-cluster-sources');
    const repos: Record<string, string> = {};
    NAMES.forEach((name, i) => {
      const dir = initRepo(`${sources}/${name}`);
      writeFiles(dir, repoFiles(i));
      commitAll(dir, `${name}: first`);
      writeFiles(dir, secondCommit(i));
      commitAll(dir, `${name}: second`);
      repos[REPOS[i]!] = dir;
    });
    cluster = await startTestCluster({ repos, searchNodes: 2, single: true, replication: 2 });
    // bob may not read zeta: the front end must not show it to him, as the single server does not.
    cluster.cli(['users', 'create', 'bob']);
    bobToken = cluster.cli(['tokens', 'create', 'bob', '--scopes', 'user:all']).trim().split('\n').pop()!.trim();
    cluster.cli(['repos', 'restrict', REPOS[5]!, '--users', 'admin']);
    await waitFor('the single server indexed every repository', () => streamSearch(cluster.single!.url, cluster.adminToken, `${MARKER} count:all`), complete);
    await waitFor('the search nodes indexed every repository', () => streamSearch(cluster.frontend.url, cluster.adminToken, `${MARKER} count:all`), complete);
  });
  after(async () => {
    await cluster?.stop();
    if (sources) removeDir(sources);
  });

  it('answers the stream API as the single server does, for the admin and for a user without access to one repository', async () => {
    for (const token of [cluster.adminToken, bobToken]) {
      for (const query of QUERIES) {
        const single = await streamSearch(cluster.single!.url, token, query);
        const front = await streamSearch(cluster.frontend.url, token, query);
        assert.equal(front.status, 200);
        assert.ok(single.matches.length > 0, `${query} finds something`);
        assert.deepEqual(matchKeys(front), matchKeys(single), query);
        assert.equal(front.done.matchCount, single.done.matchCount, query);
        assert.equal(front.done.repositoriesCount, single.done.repositoriesCount, query);
        assert.deepEqual(front.done.skipped, single.done.skipped, query);
      }
    }
    const bobSees = new Set((await streamSearch(cluster.frontend.url, bobToken, 'needle count:all')).matches.map((m) => m.repository));
    assert.ok(!bobSees.has(REPOS[5]), 'the restricted repository stays hidden through the fan-out');
    assert.equal(bobSees.size, REPOS.length - 1);
  });

  it('answers GraphQL search as the single server does, in the same order', async () => {
    for (const query of QUERIES) {
      const single = await graphqlSearch(cluster.single!.url, cluster.adminToken, query);
      const front = await graphqlSearch(cluster.frontend.url, cluster.adminToken, query);
      assert.deepEqual(front, single, query);
    }
  });

  it('routes file reads, navigation and history to the owners: GraphQL, MCP and stream context answer as the single server does, for the admin and for a user denied one repository', async () => {
    // Symbol tables and the history index come after the text phase: wait until the single server and the front end both navigate.
    for (const base of [cluster.single!.url, cluster.frontend.url]) {
      await waitFor(`symbols and history at ${base}`, async () => {
        const calls = await Promise.all(REPOS.map((repo, i) => mcpTool(base, cluster.adminToken, 'find_references', { repo, path: `src/${NAMES[i]}_lib.go`, symbol: 'haystack' })));
        const commits = await Promise.all(REPOS.map((repo) => mcpTool(base, cluster.adminToken, 'diff_search', { repos: [repo], pattern: 'haystack' })));
        return [...calls, ...commits];
      }, (answers) => answers.every((a) => !a.isError && !/No references|No commits|pending|being indexed/i.test(a.text)));
    }
    let compared = 0;
    for (const [who, token] of [['admin', cluster.adminToken], ['bob', bobToken]] as const) {
      for (const [i, repo] of REPOS.entries()) {
        const variables = { name: repo, file: 'README.md' };
        const single = await graphqlCall(cluster.single!.url, token, GRAPHQL_REPOSITORY, variables);
        const front = await graphqlCall(cluster.frontend.url, token, GRAPHQL_REPOSITORY, variables);
        assert.deepEqual(front, single, `${who}: GraphQL repository ${repo}`);
        compared++;
        for (const [tool, args] of routedToolCalls(repo, NAMES[i]!)) {
          const expected = await mcpTool(cluster.single!.url, token, tool, args);
          const got = await mcpTool(cluster.frontend.url, token, tool, args);
          assert.deepEqual(got, expected, `${who}: ${tool} ${JSON.stringify(args)}`);
          compared++;
        }
      }
      const everyRepo = await mcpTool(cluster.frontend.url, token, 'commit_search', { repos: REPOS, messageTerms: ['second'] });
      assert.deepEqual(everyRepo, await mcpTool(cluster.single!.url, token, 'commit_search', { repos: REPOS, messageTerms: ['second'] }), `${who}: commit_search over every repository`);
      for (const query of ['needle count:all', 'haystack count:all', 'patterntype:regexp return n \\+ count:all']) {
        const single = await streamWithContext(cluster.single!.url, token, query, 2);
        const front = await streamWithContext(cluster.frontend.url, token, query, 2);
        assert.equal(front.status, 200);
        assert.ok(single.matches.length > 0, query);
        assert.ok(JSON.stringify(single.matches).includes('"chunkMatches"'), 'chunk matches with context');
        assert.deepEqual(front.matches, single.matches, `${who}: stream cm=true ${query}`);
      }
    }
    // The denied repository reads as missing through the front end, as on the single server (compared above), and is really denied.
    const denied = await mcpTool(cluster.frontend.url, bobToken, 'read_file', { repo: REPOS[5]!, path: 'README.md' });
    assert.ok(denied.isError && !denied.text.includes(MARKER), denied.text);
    const allowed = await mcpTool(cluster.frontend.url, bobToken, 'read_file', { repo: REPOS[4]!, path: 'README.md' });
    assert.ok(!allowed.isError && allowed.text.includes('second revision'), allowed.text);
    assert.equal(compared, 2 * REPOS.length * 11);
  });

  it('refuses the internal search without the cluster secret, and search nodes serve no public doors', async () => {
    const node = cluster.searchNodes[0]!.url;
    const body = JSON.stringify({ query: 'needle', repos: REPOS, deadline: Date.now() + 10_000 });
    const refused: Record<string, string>[] = [{}, { 'x-quarry-cluster-secret': 'wrong-secret-0123456789abcdef' }, { Authorization: `token ${cluster.adminToken}` }];
    const call = JSON.stringify({ op: 'repos.readBlob', args: [REPOS[5], 'HEAD', 'README.md'], repos: [REPOS[5]], deadline: Date.now() + 10_000 });
    for (const headers of refused) {
      const response = await fetch(`${node}/.internal/cluster/search`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
      assert.equal(response.status, 401, JSON.stringify(headers));
      const read = await fetch(`${node}/.internal/cluster/call`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: call });
      assert.equal(read.status, 401, JSON.stringify(headers));
    }
    const stream = await fetch(`${node}/.api/search/stream?q=needle`, { headers: { Authorization: `token ${cluster.adminToken}` } });
    assert.equal(stream.status, 404);
  });

  it('shows the members, their leases and their shares in `quarry cluster status`', () => {
    const status = JSON.parse(cluster.cli(['cluster', 'status', '--json']));
    const search = status.members.filter((m: any) => m.role === 'search');
    assert.deepEqual(search.map((m: any) => m.address).sort(), cluster.searchNodes.map((n) => n.url).sort());
    assert.ok(search.every((m: any) => m.alive && m.leaseAgeMs < 60_000));
    assert.equal(status.members.filter((m: any) => m.role === 'frontend').length, 1);
    assert.equal(search.reduce((n: number, m: any) => n + m.primary, 0), REPOS.length);
    assert.equal(search.reduce((n: number, m: any) => n + m.primary + m.replica, 0), REPOS.length * 2);
    assert.equal(status.underReplicated, 0);
  });

  it('asks the replica when a search node does not answer in time (stopped with SIGSTOP)', async () => {
    const query = 'needle count:all timeout:8s';
    const expected = matchKeys(await streamSearch(cluster.single!.url, cluster.adminToken, query));
    const hung = cluster.searchNodes[0]!;
    hung.child.kill('SIGSTOP');
    try {
      const started = Date.now();
      const answer = await streamSearch(cluster.frontend.url, cluster.adminToken, query);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.done.skipped, []);
      assert.deepEqual(matchKeys(answer), expected);
      // The hung node had half the deadline; the replica answered within the rest (generous bound: a loaded machine).
      assert.ok(Date.now() - started < 20_000, `answered in ${Date.now() - started} ms`);
    } finally {
      hung.child.kill('SIGCONT');
    }
  });

  it('fails no query and loses no result while a search node is killed with -9, then names what nobody could answer', async () => {
    const expected = new Map<string, string[]>();
    for (const query of QUERIES) expected.set(query, matchKeys(await streamSearch(cluster.single!.url, cluster.adminToken, query)));
    const reads = new Map<string, string>();
    for (const repo of REPOS) reads.set(repo, (await mcpTool(cluster.single!.url, cluster.adminToken, 'read_file', { repo, path: 'README.md' })).text);
    const [victim, survivor] = cluster.searchNodes as [typeof cluster.searchNodes[0], typeof cluster.searchNodes[0]];
    let asked = 0;
    let killedAt = -1;
    const failures: string[] = [];
    // Two clients asking in turn through the kill; it lands after a few queries, mid-stream.
    const client = async (offset: number): Promise<void> => {
      for (let i = 0; i < 24; i++) {
        const query = QUERIES[(i + offset) % QUERIES.length]!;
        const answer = await streamSearch(cluster.frontend.url, cluster.adminToken, query);
        asked++;
        if (asked === 6 && killedAt < 0) {
          killedAt = asked;
          victim.child.kill('SIGKILL');
        }
        if (answer.status !== 200 || answer.done === null) failures.push(`${query}: status ${answer.status}, events ${answer.events.join(',')}`);
        else if (answer.done.skipped.length > 0) failures.push(`${query}: skipped ${JSON.stringify(answer.done.skipped)}`);
        else if (JSON.stringify(matchKeys(answer)) !== JSON.stringify(expected.get(query))) failures.push(`${query}: results differ`);
        // A routed file read goes to the repository's other owner once its first refuses the connection.
        const repo = REPOS[(i + offset) % REPOS.length]!;
        const read = await mcpTool(cluster.frontend.url, cluster.adminToken, 'read_file', { repo, path: 'README.md' });
        if (read.isError || read.text !== reads.get(repo)) failures.push(`read_file ${repo}: ${read.text.slice(0, 300)}`);
      }
    };
    await Promise.all([client(0), client(3)]);
    // A node that ended before the kill (its exit code or signal says how) fails here with what it printed.
    assert.ok(killedAt > 0 && victim.child.signalCode === 'SIGKILL', `the search node was killed during the queries; it ended with code ${victim.child.exitCode}, signal ${victim.child.signalCode}:\n${victim.output().slice(-3000)}`);
    assert.deepEqual(failures, [], cluster.searchNodes.map((n) => n.output().slice(-3000)).join('\n---\n'));
    assert.equal(asked, 48);

    survivor.child.kill('SIGKILL');
    await new Promise((resolve) => survivor.child.once('exit', resolve));
    const partial = await streamSearch(cluster.frontend.url, cluster.adminToken, 'needle count:all');
    assert.equal(partial.status, 200);
    assert.ok(partial.events.includes('done'));
    assert.equal(partial.matches.length, 0);
    const notices = partial.done.skipped.filter((s: any) => s.reason === 'shard-failed');
    assert.ok(notices.length > 0, JSON.stringify(partial.done.skipped));
    const named = notices.map((s: any) => s.message).join('\n');
    for (const repo of REPOS) assert.ok(named.includes(repo), `${repo} is named: ${named}`);
    assert.match(named, /ECONNREFUSED|no live search node/);
    const unread = await mcpTool(cluster.frontend.url, cluster.adminToken, 'read_file', { repo: REPOS[0]!, path: 'README.md' });
    assert.ok(unread.isError, unread.text);
    assert.match(unread.text, /no search node holding github\.com\/cluster\/alpha answered \((ECONNREFUSED|no live search node)/);
  });
});
