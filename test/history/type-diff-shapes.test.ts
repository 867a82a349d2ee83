/**
 * `type:diff` matches on the wire: the stream API's `commit` event with the hunks fenced as
 * `diff` and ranges on their lines, and GraphQL `CommitSearchResult.diffPreview` / `matches`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { streamMatch } from '../../src/api/stream/events.js';
import type { CommitMatch } from '../../src/model/result.js';
import { createGraphQLFixture, SECRET_REPO, type GraphQLFixture } from '../api/graphql/fixture.js';

describe('type:diff on the wire', () => {
  let fixture: GraphQLFixture;
  let post: (query: string) => Promise<any>;
  before(async () => {
    fixture = await createGraphQLFixture();
    post = async (query) => (await fixture.post({ query })).json;
  });
  after(() => fixture.close());

  test('the stream event is a commit match whose content is the fenced diff and whose ranges point at the pattern', async () => {
    const response = await fixture.engine.engine.search.search({ query: 'repo:acme/app type:diff router' });
    const match = response.matches.find((m): m is CommitMatch => m.type === 'commit')!;
    assert.ok(match);
    const wire = streamMatch(match, { chunkMatches: true, maxLineLen: -1, contextLines: 0 });
    assert.equal(wire['type'], 'commit');
    assert.equal(wire['oid'], match.oid);
    assert.equal(wire['repository'], 'github.com/acme/app');
    const content = wire['content'] as string;
    assert.match(content, /^```diff\n\/dev\/null README\.md\n@@ -0,0 \+1,2 @@\n\+# app\n/);
    assert.ok(content.endsWith('\n```'));
    const lines = content.split('\n');
    const ranges = wire['ranges'] as [number, number, number][];
    assert.equal(ranges.length, 2);
    for (const [line, character, length] of ranges) assert.equal([...lines[line]!].slice(character, character + length).join('').toLowerCase(), 'router');
  });

  test('GraphQL gives diffPreview with 1-based highlights and leaves out unreadable repositories', async () => {
    const { data, errors } = await post(`{ search(query: "type:diff Router", version: V3) { results { matchCount results {
      __typename ... on CommitSearchResult { messagePreview { value } diffPreview { value highlights { line character length } }
        matches { body { text } highlights { line character length } } commit { repository { name } } } } } } }`);
    assert.equal(errors, undefined);
    const results = data.search.results.results;
    assert.deepEqual(results.map((r: any) => r.commit.repository.name).sort(), ['github.com/acme/app', 'github.com/acme/lib']);
    assert.ok(!results.some((r: any) => r.commit.repository.name === SECRET_REPO));
    for (const result of results) {
      assert.equal(result.__typename, 'CommitSearchResult');
      const lines = result.diffPreview.value.split('\n');
      assert.ok(result.diffPreview.highlights.length > 0);
      for (const { line, character, length } of result.diffPreview.highlights) {
        assert.equal([...lines[line - 1]].slice(character - 1, character - 1 + length).join(''), 'Router');
      }
      const [only] = result.matches;
      assert.equal(only.body.text, `\`\`\`diff\n${result.diffPreview.value}\n\`\`\``);
      assert.deepEqual(only.highlights.map((h: any) => h.line), result.diffPreview.highlights.map((h: any) => h.line + 1));
    }
  });

  test('type:commit results keep a null diffPreview', async () => {
    const { data, errors } = await post('{ search(query: "type:commit initial", version: V3) { results { results { ... on CommitSearchResult { diffPreview { value } } } } } }');
    assert.equal(errors, undefined);
    assert.ok(data.search.results.results.length > 0);
    assert.ok(data.search.results.results.every((r: any) => r.diffPreview === null));
  });
});
