/**
 * Paging keyword_search and nls_search over real code nobody here wrote (psf/requests and
 * gin-gonic/gin from ../shared/corpora): following the cursors visits every file git grep finds
 * exactly once, in the engine's order. Skipped, saying why, where the corpora are absent (they live
 * beside the project, not in it).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { estimateTokens } from '../../../../src/api/mcp/answer.js';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import type { ToolAnswer, ToolDefinition } from '../../../../src/api/mcp/tool.js';
import { keywordSearchTool } from '../../../../src/api/mcp/tools/keyword-search.js';
import { nlsSearchTool } from '../../../../src/api/mcp/tools/nls-search.js';
import type { SearchArgs } from '../../../../src/api/mcp/tools/search-answer.js';
import { DEFAULT_MAX_FILE_SIZE } from '../../../../src/config.js';
import type { FileMatch } from '../../../../src/model/result.js';
import { getRepo } from '../../../../src/store/repos.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../../e2e/engine-fixture.js';
import { git, makeTempDir, removeDir } from '../../../git/fixtures.js';
import { callTool, mcpServicesOf } from '../tool-context.js';

const CORPORA = [
  { name: 'github.com/psf/requests', bundle: 'requests.bundle' },
  { name: 'github.com/gin-gonic/gin', bundle: 'gin.bundle' },
];
const NEXT_CALL = /\n\(more available - call (\w+) with (\{.*\}) to see the next ones\)\n$/;
const HEADER = /^# (\S+) \u2013 (.+)$/gm;

/** QUARRY_BENCH_CORPORA, else a shared/corpora folder beside this checkout or one of its parents. */
function findCorpora(): string | null {
  const configured = process.env['QUARRY_BENCH_CORPORA'];
  if (configured) return CORPORA.every((c) => existsSync(join(configured, c.bundle))) ? configured : null;
  for (let dir = resolve(dirname(fileURLToPath(import.meta.url)), '..'); dirname(dir) !== dir; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'corpora');
    if (CORPORA.every((c) => existsSync(join(candidate, c.bundle)))) return candidate;
  }
  return null;
}

const corpora = findCorpora();
const skip = corpora === null ? 'the real corpora (requests.bundle, gin.bundle) are not in ../shared/corpora or QUARRY_BENCH_CORPORA' : false;

let fixture: EngineFixture;
let work: string;
let services: McpServices;
/** The bare mirror of each repository, where git grep reads the indexed commit. */
const mirrorOf = new Map<string, string>();

describe('paging over real repositories', { skip }, () => {
  before(async () => {
    fixture = await createEngineFixture();
    work = makeTempDir('quarry-paging-real');
    for (const { name, bundle } of CORPORA) {
      const mirror = join(work, bundle.replace(/\.bundle$/, '.git'));
      git(work, 'clone', '--quiet', '--mirror', join(corpora!, bundle), mirror);
      mirrorOf.set(name, mirror);
      await addAndIndex(fixture, name, mirror);
    }
    services = mcpServicesOf(fixture);
  });

  after(async () => {
    await fixture.engine.close();
    removeDir(fixture.dataDir);
    removeDir(work);
  });

  async function followPages(tool: ToolDefinition<SearchArgs>, query: string): Promise<string[][]> {
    const pages: string[][] = [];
    let args: SearchArgs | null = { query };
    while (args !== null) {
      assert.ok(pages.length < 500, 'the cursors end');
      const answer: ToolAnswer = await callTool(services, tool, args);
      assert.equal(answer.isError, undefined, answer.text);
      assert.ok(estimateTokens(answer.text) <= 8000);
      assert.doesNotMatch(answer.text, /^(Found at least|Note: the results changed since the previous page)/m);
      const page = [...answer.text.matchAll(HEADER)].map((m) => `${m[1]}:${m[2]}`);
      assert.ok(page.length > 0 && page.length <= 15, `page ${pages.length + 1} has ${page.length} files`);
      pages.push(page);
      const next = NEXT_CALL.exec(answer.text);
      args = next === null ? null : JSON.parse(next[2]!) as SearchArgs;
    }
    return pages;
  }

  /** Files git grep finds on the indexed branch, leaving out those over the index's size limit. */
  function gitGrepFiles(pattern: string): string[] {
    return CORPORA.flatMap(({ name }) => {
      // The bundles' HEAD may name a branch they lack: grep the branch the registry indexed.
      const branch = getRepo(fixture.engine.store, name)!.defaultBranch;
      const mirror = mirrorOf.get(name)!;
      const oversize = new Set(git(mirror, 'ls-tree', '-r', '-l', branch).split('\n').map((row) => row.split(/\s+/)).filter((f) => Number(f[3]) > DEFAULT_MAX_FILE_SIZE).map((f) => f.slice(4).join(' ')));
      const listed = git(mirror, 'grep', '-l', '-I', '-i', '-F', '-e', pattern, branch, '--').split('\n').filter(Boolean).map((line) => line.slice(branch.length + 1));
      return listed.filter((path) => !oversize.has(path)).map((path) => `${name}:${path}`);
    }).sort();
  }

  for (const word of ['request', 'context']) {
    test(`keyword_search "${word}": the pages hold every file git grep finds, once, in the engine's order`, async () => {
      // content: keeps the search to file contents, as git grep's is (a plain term also matches paths).
      const query = `repo:^github\\.com/ content:${word} count:all`;
      const visited = (await followPages(keywordSearchTool, query)).flat();
      assert.equal(new Set(visited).size, visited.length, 'no file on two pages');
      assert.deepEqual([...visited].sort(), gitGrepFiles(word));
      const whole = await fixture.engine.search.search({ query });
      assert.deepEqual(visited, whole.matches.map((m) => `${m.repository}:${(m as FileMatch).path}`));
    });
  }

  test('nls_search: the pages hold each ranked file once, as many as the first page counts', async () => {
    const query = 'session cookie redirect';
    const first = await callTool(services, nlsSearchTool, { query });
    const total = Number(/ in ([\d,]+) files; showing 1-15 of \1 files\./.exec(first.text)?.[1]?.replace(/,/g, ''));
    const visited = (await followPages(nlsSearchTool, query)).flat();
    assert.equal(new Set(visited).size, visited.length, 'no file on two pages');
    assert.equal(visited.length, total);
  });
});
