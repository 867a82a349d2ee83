/**
 * Paging keyword_search and nls_search by their `after` cursors over real indexed repositories and
 * the worker pool: following the cursors visits every matching file exactly once, in the engine's
 * order, whatever the page size (checked against git grep and the engine's own answer); totals are
 * exact or said to be lower bounds; foreign, malformed and stale cursors are answered as such.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { estimateTokens } from '../../../../src/api/mcp/answer.js';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import type { ToolAnswer, ToolDefinition } from '../../../../src/api/mcp/tool.js';
import { keywordSearchTool } from '../../../../src/api/mcp/tools/keyword-search.js';
import { nlsSearchTool } from '../../../../src/api/mcp/tools/nls-search.js';
import type { SearchArgs } from '../../../../src/api/mcp/tools/search-answer.js';
import { syncRepository } from '../../../../src/repos/registry.js';
import type { FileMatch } from '../../../../src/model/result.js';
import { buildCorpus, CORPUS_MAX_FILE_SIZE } from '../../../e2e/corpus.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../../e2e/engine-fixture.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../../../git/fixtures.js';
import { callTool, mcpServicesOf } from '../tool-context.js';

const CORPORA = [
  { name: 'example.com/corpus-a', seed: 1 },
  { name: 'example.com/corpus-b', seed: 2 },
];
const CHANGING = 'example.com/changing';
const NEXT_CALL = /\n\(more available - call (\w+) with (\{.*\}) to see the next ones\)\n$/;
const HEADER = /^# (\S+) \u2013 (.+)$/gm;

let fixture: EngineFixture;
let sources: string;
let services: McpServices;
const sourceOf = new Map<string, string>();

before(async () => {
  fixture = await createEngineFixture({ maxFileSize: CORPUS_MAX_FILE_SIZE });
  sources = makeTempDir('quarry-search-paging');
  for (const { name, seed } of CORPORA) {
    const dir = `${sources}/${name.split('/').at(-1)}`;
    buildCorpus(dir, seed, 90);
    sourceOf.set(name, dir);
    await addAndIndex(fixture, name, dir);
  }
  const changing = initRepo(`${sources}/changing`);
  writeFiles(changing, Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`n/f${String(i).padStart(2, '0')}.txt`, `needle ${i}\n`])));
  commitAll(changing, 'twenty needles');
  sourceOf.set(CHANGING, changing);
  await addAndIndex(fixture, CHANGING, changing);
  services = mcpServicesOf(fixture);
});

after(async () => {
  await fixture.engine.close();
  removeDir(fixture.dataDir);
  removeDir(sources);
});

interface Paged {
  /** `repo:path` of the files each page showed, in order. */
  readonly pages: string[][];
  readonly texts: string[];
}

function headers(text: string): string[] {
  return [...text.matchAll(HEADER)].map((m) => `${m[1]}:${m[2]}`);
}

function nextArgs(text: string, tool: string): SearchArgs | null {
  const next = NEXT_CALL.exec(text);
  if (next === null) return null;
  assert.equal(next[1], tool);
  return JSON.parse(next[2]!) as SearchArgs;
}

/** Calls the tool, then each next call the answers end with, exactly as given, until none is given. */
async function followPages(tool: ToolDefinition<SearchArgs>, query: string, maxAnswerTokens = 8000): Promise<Paged> {
  const pages: string[][] = [];
  const texts: string[] = [];
  let args: SearchArgs | null = { query };
  while (args !== null) {
    assert.ok(pages.length < 200, 'the cursors end');
    const answer: ToolAnswer = await callTool(services, tool, args, { maxAnswerTokens });
    assert.equal(answer.isError, undefined, answer.text);
    assert.ok(estimateTokens(answer.text) <= maxAnswerTokens, `page ${pages.length + 1} fits its budget`);
    assert.doesNotMatch(answer.text, /changed since the previous page/);
    pages.push(headers(answer.text));
    texts.push(answer.text);
    args = nextArgs(answer.text, tool.name);
    if (args !== null) assert.equal(args.query, query, 'the next call repeats the query');
  }
  return { pages, texts };
}

function assertEachOnce(paged: Paged): string[] {
  const all = paged.pages.flat();
  assert.equal(new Set(all).size, all.length, 'no file is shown on two pages');
  for (const [i, page] of paged.pages.entries()) assert.ok(page.length > 0 && page.length <= 15, `page ${i + 1} has ${page.length} files`);
  return all;
}

/** Files git grep finds in the corpus repositories (text files under the index's size limit). */
function gitGrepFiles(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const { name } of CORPORA) {
    let listed = '';
    try {
      listed = git(sourceOf.get(name)!, 'grep', '-l', '-I', '-i', ...args, 'HEAD', '--', '.', ':(exclude)big/huge.txt');
    } catch (err) {
      if ((err as { status?: number }).status !== 1) throw err;
    }
    out.push(...listed.split('\n').filter(Boolean).map((line) => `${name}:${line.replace(/^HEAD:/, '')}`));
  }
  return out.sort();
}

const CORPUS_SCOPE = 'repo:^example\\.com/corpus-';

describe('keyword_search pages', () => {
  const query = `${CORPUS_SCOPE} foo count:all`;

  test('the pages visit every file git grep finds exactly once, in the order of the engine\'s whole answer', async () => {
    const paged = await followPages(keywordSearchTool, query);
    const visited = assertEachOnce(paged);
    assert.ok(paged.pages.length >= 4, `${paged.pages.length} pages`);
    assert.deepEqual([...visited].sort(), gitGrepFiles(['-F', '-e', 'foo']));
    const whole = await fixture.engine.search.search({ query });
    assert.equal(whole.limitHit, false);
    assert.deepEqual(visited, whole.matches.map((m) => `${m.repository}:${(m as FileMatch).path}`));
    assert.match(paged.texts[0]!, new RegExp(`^Found [\\d,]+ matches in ${visited.length} files; showing 1-15 of ${visited.length} files\\.$`, 'm'));
    assert.match(paged.texts[1]!, new RegExp(`; showing 16-30 of ${visited.length} files\\.$`, 'm'));
    assert.doesNotMatch(paged.texts.at(-1)!, /more available/);
  });

  test('a smaller answer budget makes more, smaller pages of the same files in the same order', async () => {
    const full = (await followPages(keywordSearchTool, query)).pages.flat();
    const small = await followPages(keywordSearchTool, query, 1500);
    assert.ok(small.pages.length > Math.ceil(full.length / 15), `${small.pages.length} pages`);
    assert.deepEqual(assertEachOnce(small), full);
    assert.match(small.texts[0]!, /\(the answer budget of 1,500 tokens is spent\)\./);
  });

  test('a query whose results hit the engine\'s limit says its totals are lower bounds, and its last page says how to see more', async () => {
    const limited = `${CORPUS_SCOPE} foo count:300`;
    const first = await callTool(services, keywordSearchTool, { query: limited });
    assert.match(first.text, /^Found at least 300 matches in \d+ files; showing 1-15 of \d+ files\.$/m);
    assert.match(first.text, /The search hit its result limit, so more files may match than the pages will show: add count:all/);
    const pages = [headers(first.text)];
    let text = first.text;
    let changed = false;
    for (let args = nextArgs(text, 'keyword_search'); args !== null; args = nextArgs(text, 'keyword_search')) {
      text = (await callTool(services, keywordSearchTool, args)).text;
      pages.push(headers(text));
      changed ||= /changed since the previous page/.test(text);
    }
    assert.ok(pages.length >= 2, `${pages.length} pages`);
    assert.match(text, /The search hit its result limit, so more files may match: add count:all.*\n$/);
    // Where the limit stops the engine may depend on which worker got there first: pages of a set
    // that came out otherwise must say so; pages that do not say so are one set, each file once.
    if (!changed) {
      const total = Number(/^Found at least 300 matches in (\d+) files; showing \d+-(\d+) of \1 files\.$/m.exec(text)?.[1]);
      assert.equal(new Set(pages.flat()).size, total);
      assert.equal(pages.flat().length, total);
    }
    const capped = await callTool(services, keywordSearchTool, { query: `${CORPUS_SCOPE} foo count:all` });
    assert.doesNotMatch(capped.text, /at least|result limit/, 'count:all within the engine\'s cap is exact');
  });

  test('a cursor from another query, from nls_search or not made by Quarry is a tool error that says what to do', async () => {
    const first = await callTool(services, keywordSearchTool, { query });
    const cursor = nextArgs(first.text, 'keyword_search')!.after!;
    const other = await callTool(services, keywordSearchTool, { query: `${CORPUS_SCOPE} bar count:all`, after: cursor });
    assert.equal(other.isError, true);
    assert.equal(other.text, `The after cursor belongs to "keyword_search ${query}", not "keyword_search ${CORPUS_SCOPE} bar count:all": repeat that call or start again without a cursor.`);
    const nls = await callTool(services, nlsSearchTool, { query, after: cursor });
    assert.equal(nls.isError, true);
    assert.match(nls.text, /^The after cursor belongs to "keyword_search /);
    const forged = Buffer.from(JSON.stringify({ q: `keyword_search ${query}`, i: -3 })).toString('base64url');
    for (const bad of ['', 'not a cursor', '%%%', forged, cursor.slice(0, -4)]) {
      const answer = await callTool(services, keywordSearchTool, { query, after: bad });
      assert.equal(answer.isError, true, bad);
      assert.equal(answer.text, 'Invalid after cursor: pass a cursor exactly as a previous keyword_search answer gave it.');
    }
  });

  test('a cursor past the end answers that there is nothing more', async () => {
    const cursor = Buffer.from(JSON.stringify({ q: `keyword_search ${query}`, i: 100_000, h: 'x' })).toString('base64url');
    const answer = await callTool(services, keywordSearchTool, { query, after: cursor });
    assert.equal(answer.isError, undefined);
    assert.match(answer.text, /^No more results after that cursor: the search found [\d,]+ matches in \d+ files\.$/m);
  });

  test('results that changed between pages are said to have changed', async () => {
    const scoped = `repo:^example\\.com/changing$ needle`;
    const first = await callTool(services, keywordSearchTool, { query: scoped });
    const next = nextArgs(first.text, 'keyword_search')!;
    const unchanged = await callTool(services, keywordSearchTool, next);
    assert.doesNotMatch(unchanged.text, /changed since/);
    const source = sourceOf.get(CHANGING)!;
    writeFiles(source, { 'needle.txt': 'needle in its own path\n' });
    commitAll(source, 'a file that ranks first');
    await syncRepository({ dataDir: fixture.dataDir, store: fixture.engine.store }, CHANGING);
    await fixture.indexRepo(CHANGING);
    const changed = await callTool(services, keywordSearchTool, next);
    assert.equal(changed.isError, undefined);
    assert.match(changed.text, /Note: the results changed since the previous page was made .*; call again without after to start over\./);
  });
});

describe('nls_search pages', () => {
  const query = `${CORPUS_SCOPE} gamma delta`;

  test('the pages visit every ranked file once, as many as the first page counts, whatever the page size', async () => {
    const paged = await followPages(nlsSearchTool, query);
    const visited = assertEachOnce(paged);
    const total = Number(/ in (\d+) files; showing 1-15 of \1 files\./.exec(paged.texts[0]!)?.[1]);
    assert.equal(visited.length, total);
    assert.ok(paged.pages.length >= 3, `${paged.pages.length} pages`);
    const holding = new Set(gitGrepFiles(['-e', 'gamma', '-e', 'delta']));
    for (const file of visited) assert.ok(holding.has(file), `${file} holds a term`);
    for (const text of paged.texts) assert.match(text, /^Searched for: /, 'every page opens with the terms searched');
    const small = await followPages(nlsSearchTool, query, 1500);
    assert.deepEqual(assertEachOnce(small), visited);
  });

  test('a cursor from another question or a malformed one is a tool error', async () => {
    const cursor = nextArgs((await callTool(services, nlsSearchTool, { query })).text, 'nls_search')!.after!;
    const other = await callTool(services, nlsSearchTool, { query: `${CORPUS_SCOPE} gamma`, after: cursor });
    assert.equal(other.isError, true);
    assert.match(other.text, /^The after cursor belongs to "nls_search .*gamma delta", not "nls_search .*gamma": repeat that call/);
    const bad = await callTool(services, nlsSearchTool, { query, after: 'eyJ' });
    assert.equal(bad.isError, true);
    assert.equal(bad.text, 'Invalid after cursor: pass a cursor exactly as a previous nls_search answer gave it.');
  });
});
