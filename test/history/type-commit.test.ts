/** `type:commit` through the engine's search service, the stream JSON shape and GraphQL. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { toStreamMatch } from '../../src/api/stream/match-json.js';
import { isQuarryError } from '../../src/errors.js';
import type { CommitMatch, SearchResponse } from '../../src/model/result.js';
import { parseQuery, queryToString } from '../../src/query/index.js';
import { createGraphQLFixture, type GraphQLFixture } from '../api/graphql/fixture.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../e2e/engine-fixture.js';
import { git, makeTempDir, removeDir } from '../git/fixtures.js';
import { buildScriptedRepo, gitLogOids } from './scripted-repo.js';

const DEMO = 'example.com/demo';

describe('type:commit in the search service', () => {
  let engine: EngineFixture;
  let tmp: string;
  let work: string;
  before(async () => {
    engine = await createEngineFixture({ pool: 'in-thread' });
    tmp = makeTempDir('quarry-type-commit');
    work = buildScriptedRepo(join(tmp, 'demo'));
    await addAndIndex(engine, DEMO, work);
  });
  after(async () => {
    await engine.engine.close();
    removeDir(engine.dataDir);
    removeDir(tmp);
  });

  const search = (query: string): Promise<SearchResponse> => engine.engine.search.search({ query });
  const oids = (response: SearchResponse): string[] => response.matches.map((m) => (m as CommitMatch).oid).sort();

  test('a pattern matches messages like git log --grep -i', async () => {
    const response = await search('type:commit fix');
    assert.ok(response.matches.every((m) => m.type === 'commit'));
    assert.deepEqual(oids(response), gitLogOids(work, '-i', '-F', '--grep=fix', 'HEAD'));
    assert.equal(response.matchCount, response.matches.length);
  });

  test('author:, -author:, message:, committer: and dates combine with AND', async () => {
    assert.deepEqual(oids(await search('type:commit author:carol')), gitLogOids(work, '-i', '--author=carol', 'HEAD'));
    assert.deepEqual(oids(await search('type:commit committer:alice -author:alice')), gitLogOids(work, '-i', '--committer=alice', '--author=carol', 'HEAD'));
    assert.deepEqual(oids(await search('type:commit message:parser author:bob')), gitLogOids(work, '-i', '--grep=parser', '--author=bob', 'HEAD'));
    const dated = await search('type:commit after:"2023-11-17" before:"11/20/2023"');
    assert.deepEqual(oids(dated), gitLogOids(work, '--since=2023-11-17T00:00:00Z', '--until=2023-11-20T00:00:00Z', 'HEAD'));
    assert.equal(dated.matches.length, 3);
  });

  test('repo:x@rev and count: apply; results are newest first', async () => {
    assert.deepEqual(oids(await search(`type:commit repo:^example\\.com/demo$@experiment experiment`)), gitLogOids(work, '-i', '--grep=experiment', 'experiment'));
    const cut = await search('type:commit count:2');
    assert.equal(cut.limitHit, true);
    assert.deepEqual(cut.matches.map((m) => (m as CommitMatch).oid), git(work, 'log', '-2', '--format=%H').split('\n'));
  });

  test('matches carry message ranges and the stream shape of reference §3.4', async () => {
    const [match] = (await search('type:commit tokenizer unicode')).matches as CommitMatch[];
    assert.ok(match);
    assert.deepEqual(match.ranges, [[0, 9, 9], [0, 27, 7]]);
    const wire = toStreamMatch(match);
    assert.equal(wire['type'], 'commit');
    assert.equal(wire['oid'], match.oid);
    assert.equal(wire['content'], `\`\`\`COMMIT_EDITOR\n${match.message}\n\`\`\``);
    assert.deepEqual(wire['ranges'], [[1, 9, 9], [1, 27, 7]]);
  });

  test('bad dates and patterns are errors; commit filters print canonically', async () => {
    await assert.rejects(search('author:bob fix'), (err) => isQuarryError(err, 'QUERY_UNSUPPORTED'));
    await assert.rejects(search('type:commit after:whenever'), (err) => isQuarryError(err, 'INVALID_ARGUMENT'));
    await assert.rejects(search('type:commit author:(oops'), (err) => isQuarryError(err, 'PATTERN_INVALID') || isQuarryError(err, 'QUERY_SYNTAX'));
    assert.equal(queryToString(parseQuery('type:commit -author:bob since:"2 weeks ago" msg:fix')), '(and type:commit -author:bob message:fix after:"2 weeks ago")');
  });
});

describe('GraphQL CommitSearchResult and Repository.contributors', () => {
  let fixture: GraphQLFixture;
  let post: (query: string) => Promise<any>;
  before(async () => {
    fixture = await createGraphQLFixture();
    post = async (query) => (await fixture.post({ query })).json;
  });
  after(() => fixture.close());

  test('search returns CommitSearchResult with commit fields, readable repositories only', async () => {
    const { data, errors } = await post(`{ search(query: "type:commit initial", version: V3) { results { matchCount results {
      __typename ... on CommitSearchResult { url label { text } messagePreview { value highlights { line character length } }
        commit { oid subject author { person { name email } } repository { name } } } } } } }`);
    assert.equal(errors, undefined);
    const results = data.search.results.results;
    assert.ok(results.length >= 1);
    assert.ok(results.every((r: any) => r.__typename === 'CommitSearchResult' && !r.commit.repository.name.includes('secret')));
    const first = results[0];
    assert.match(first.url, /\/-\/commit\/[0-9a-f]{40}$/);
    assert.equal(first.commit.subject, first.messagePreview.value.split('\n')[0]);
    assert.deepEqual(first.messagePreview.highlights[0], { line: 1, character: 1, length: 7 });
  });

  test('contributors count commits per person; an unreadable repository is absent', async () => {
    const { data, errors } = await post(`{ repository(name: "github.com/acme/app") { contributors(first: 5) { totalCount nodes { count person { name email } } } } }`);
    assert.equal(errors, undefined);
    assert.deepEqual(data.repository.contributors, { totalCount: 1, nodes: [{ count: 1, person: { name: 'Quarry Test', email: 'test@quarry.invalid' } }] });
  });
});
