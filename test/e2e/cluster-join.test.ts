/**
 * A search node joins a running cluster of real processes (PostgreSQL, two search nodes with
 * replication 1, so no replica hides a node that answers before it holds its share; a front end)
 * during a stream of queries: it warms up (builds its share while the
 * others serve, routed nothing), turns active and takes its share, and the old owners remove what
 * they no longer own after the grace period. No query fails, every answer stays equal to the one
 * before the join (stream search and a routed file read). Skipped, saying why, without PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { matchKeys, postgresMissing, startTestCluster, streamSearch, waitFor, type StreamAnswer, type TestCluster } from '../cluster/cluster-processes.js';
import { mcpTool } from '../cluster/routed-calls.js';

const NAMES = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
const REPOS = NAMES.map((n) => `github.com/join/${n}`);
const QUERIES = ['joinmarker count:all', 'patterntype:regexp value_[0-9]+ count:all', 'file:\\.go$ func count:all'];
const GRACE_MS = 6_000;

describe('a search node joining a serving cluster', { skip: postgresMissing() ?? false, timeout: 900_000 }, () => {
  let cluster: TestCluster;
  let sources: string;
  const complete = (a: StreamAnswer): boolean => a.status === 200 && a.done !== null && a.done.skipped.length === 0 && new Set(a.matches.map((m) => m.repository)).size === REPOS.length;

  before(async () => {
    sources = makeTempDir('quarry-join-sources');
    const repos: Record<string, string> = {};
    NAMES.forEach((name, i) => {
      const dir = initRepo(`${sources}/${name}`);
      writeFiles(dir, {
        'README.md': `# ${name}\njoinmarker ${name}\n`,
        [`src/${name}.go`]: `package ${name}\n\nfunc value_${i}() int {\n\treturn ${i}\n}\n`,
      });
      commitAll(dir, `${name}: first`);
      repos[REPOS[i]!] = dir;
    });
    cluster = await startTestCluster({ repos, searchNodes: 2, single: false, replication: 1, env: { QUARRY_CLUSTER_RETIRE_GRACE_MS: String(GRACE_MS) } });
    await waitFor('the search nodes indexed every repository', () => streamSearch(cluster.frontend.url, cluster.adminToken, 'joinmarker count:all'), complete);
  });
  after(async () => {
    await cluster?.stop();
    if (sources) removeDir(sources);
  });

  it('takes its share with no failed query, answers unchanged, and the old owners drop what they gave up', async () => {
    const token = cluster.adminToken;
    const expected = new Map<string, string[]>();
    for (const query of QUERIES) expected.set(query, matchKeys(await streamSearch(cluster.frontend.url, token, query)));
    const reads = new Map<string, string>();
    for (const repo of REPOS) reads.set(repo, (await mcpTool(cluster.frontend.url, token, 'read_file', { repo, path: 'README.md' })).text);
    const failures: string[] = [];
    let asked = 0;
    let running = true;
    const client = async (offset: number): Promise<void> => {
      for (let i = offset; running; i++) {
        const query = QUERIES[i % QUERIES.length]!;
        const answer = await streamSearch(cluster.frontend.url, token, query);
        if (answer.status !== 200 || answer.done === null) failures.push(`${query}: status ${answer.status}, events ${answer.events.join(',')}`);
        else if (answer.done.skipped.length > 0) failures.push(`${query}: skipped ${JSON.stringify(answer.done.skipped)}`);
        else if (JSON.stringify(matchKeys(answer)) !== JSON.stringify(expected.get(query))) failures.push(`${query}: results differ`);
        const repo = REPOS[i % REPOS.length]!;
        const read = await mcpTool(cluster.frontend.url, token, 'read_file', { repo, path: 'README.md' });
        if (read.isError || read.text !== reads.get(repo)) failures.push(`read_file ${repo}: ${read.text.slice(0, 200)}`);
        asked += 2;
      }
    };
    const clients = [client(0), client(1)];
    try {
      const joined = await cluster.addSearchNode();
      const status = (): any => JSON.parse(cluster.cli(['cluster', 'status', '--json']));
      const joinedRow = (s: any): any => s.members.find((m: any) => m.address === joined.url);
      await waitFor('the joining node registered', async () => joined.output(), (out) => /joined as search at \S+ \((warming|active)\)/.test(out), 60_000);
      assert.match(joined.output(), /\(warming\)/, 'a node joining while others serve starts warming');
      // Active once its whole share is indexed here (the log says so after the state is written).
      await waitFor('the joining node warmed up', async () => joined.output(), (out) => /warmed up: \d+ of \d+ repositories/.test(out));
      assert.match(joined.output(), /warmed up: (\d+) of \1 repositories indexed here; now active/);
      const active = await waitFor('the joining node is active in cluster status', async () => status(), (s) => joinedRow(s)?.state === 'active', 30_000);
      const share = joinedRow(active);
      assert.ok(share.primary > 0, `the new node owns a share: ${JSON.stringify(share)}`);
      assert.equal(active.underReplicated, 0);
      // The old owners keep what they gave up for the grace period, then remove it.
      const [first, second] = cluster.searchNodes;
      await waitFor('an old owner removed a repository it no longer owns', async () => first!.output() + second!.output(),
        (out) => /owned elsewhere since \d+ s: its index and mirror are removed here/.test(out), 120_000);
      // Queries keep running a while on the new ownership alone.
      const until = asked + 24;
      await waitFor('more queries after the removal', async () => asked, (n) => n >= until, 120_000);
    } finally {
      running = false;
      await Promise.all(clients);
    }
    assert.deepEqual(failures, [], cluster.searchNodes.map((n) => n.output().slice(-2000)).join('\n---\n'));
    assert.ok(asked >= 24, `asked ${asked}`);
  });
});
