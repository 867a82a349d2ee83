/**
 * nls_search relevance: labelled natural-language questions over a realistic repository; the file
 * that answers each must be among the first five results. The rank table is printed for review.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { nlsSearchTool } from '../../../../src/api/mcp/tools/nls-search.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../../e2e/engine-fixture.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../../../git/fixtures.js';
import { callTool, mcpServicesOf } from '../tool-context.js';
import { RELEVANCE_FILES, RELEVANCE_QUESTIONS, RELEVANCE_REPO } from './relevance-corpus.js';

let fixture: EngineFixture;
let sources: string;
let services: McpServices;

before(async () => {
  fixture = await createEngineFixture({ pool: 'in-thread' });
  sources = makeTempDir('quarry-nls-relevance');
  const dir = initRepo(`${sources}/storefront`);
  writeFiles(dir, RELEVANCE_FILES);
  commitAll(dir, 'storefront');
  await addAndIndex(fixture, RELEVANCE_REPO, dir);
  services = mcpServicesOf(fixture);
});

after(async () => {
  await fixture.engine.close();
  removeDir(fixture.dataDir);
  removeDir(sources);
});

/** File paths in the order the answer lists them. */
function rankedPaths(text: string): string[] {
  const prefix = `# ${RELEVANCE_REPO} \u2013 `;
  return text.split('\n').filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length));
}

test('every labelled question finds its file in the top 5', async () => {
  const rows: string[] = [];
  const misses: string[] = [];
  for (const { question, expected } of RELEVANCE_QUESTIONS) {
    const answer = await callTool(services, nlsSearchTool, { query: question }, { maxAnswerTokens: 50_000 });
    assert.equal(answer.isError, undefined, answer.text);
    const paths = rankedPaths(answer.text);
    const rank = paths.indexOf(expected) + 1;
    rows.push(`${(rank === 0 ? '-' : String(rank)).padEnd(4)} ${question.padEnd(56)} → ${expected.padEnd(28)} top: ${paths.slice(0, 3).join(', ')}`);
    if (rank === 0 || rank > 5) misses.push(`${question} → ${expected} ranked ${rank === 0 ? 'absent' : rank}`);
  }
  console.log(`rank question\n${rows.join('\n')}`);
  assert.deepEqual(misses, []);
});

test('a question names the terms it searched first', async () => {
  const answer = await callTool(services, nlsSearchTool, { query: 'which code evicts old cache entries' });
  assert.equal(answer.text.split('\n')[0], 'Searched for: evict, old, cach (or memoiz, memo), entr (stemmed; any term matches)');
});
