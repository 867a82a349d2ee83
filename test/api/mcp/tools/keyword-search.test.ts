/**
 * keyword_search over a real index: the Sourcegraph text format, chunk merging and limits, the
 * token budget and its notice, repository and path results, errors, and repository visibility.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LINE_TRUNCATED } from '../../../../src/api/mcp/format.js';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { keywordSearchTool } from '../../../../src/api/mcp/tools/keyword-search.js';
import { BODY_LINES, buildChunks, renderChunk } from '../../../../src/api/mcp/tools/search-chunks.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../../e2e/engine-fixture.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../../../git/fixtures.js';
import { callTool, mcpServicesOf } from '../tool-context.js';

const APP = 'github.com/acme/app';
const SECRET = 'github.com/acme/secret';

function numbered(from: number, count: number, text: (n: number) => string): string {
  return Array.from({ length: count }, (_, i) => text(from + i)).join('\n');
}

const CHUNKS_FILE = [
  'line 1', 'line 2', 'needle one', 'needle two needle', 'line 5', 'line 6', 'line 7', 'line 8', 'line 9', 'needle ten',
  ...Array.from({ length: 9 }, (_, i) => `line ${i + 11}`), 'needle twenty', ...Array.from({ length: 9 }, (_, i) => `line ${i + 21}`),
  'needle thirty', 'line 31',
].join('\n') + '\n';

const REPOS: Record<string, Record<string, string>> = {
  [APP]: {
    'src/chunks.ts': CHUNKS_FILE,
    'src/long.ts': `const a = 1;\nconst s = "${'x'.repeat(300)} longneedle";\nconst b = 2;\n`,
    'src/dense.ts': `${numbered(1, 30, (n) => `dense ${n} ${'y'.repeat(90)}`)}\n`,
    'src/router.ts': [
      'export class Router {', '  handle(path: string): string {', '    const trimmed = path.trim();', '    return placeprobe(trimmed);', '  }', '}', '',
      'function placeprobe(p: string): string {', '  return p;', '}',
    ].join('\n') + '\n',
    ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`many/f${String(i).padStart(2, '0')}.ts`, `export const widespread${i} = ${i};\n`])),
  },
  [SECRET]: { 'secret.ts': 'export const classified = "needle";\n' },
};

let fixture: EngineFixture;
let sources: string;
let services: McpServices;
const notSecret = (repo: string): boolean => repo !== SECRET;

before(async () => {
  fixture = await createEngineFixture({ pool: 'in-thread' });
  sources = makeTempDir('quarry-keyword-search');
  for (const [name, files] of Object.entries(REPOS)) {
    const dir = initRepo(`${sources}/${name.split('/').at(-1)}`);
    writeFiles(dir, files);
    commitAll(dir, `initial ${name}`);
    await addAndIndex(fixture, name, dir);
  }
  services = mcpServicesOf(fixture);
});

after(async () => {
  await fixture.engine.close();
  removeDir(fixture.dataDir);
  removeDir(sources);
});

describe('chunks', () => {
  test('hits get one line of context, and touching chunks merge', () => {
    const chunks = buildChunks([{ line: 2, weight: 1 }, { line: 3, weight: 2 }, { line: 9, weight: 1 }, { line: 12, weight: 1 }], 31);
    assert.deepEqual(chunks, [
      { start: 1, end: 4, weight: 3 },
      { start: 8, end: 13, weight: 2 },
    ]);
  });

  test('equal chunks keep file order and never run past the file', () => {
    assert.deepEqual(buildChunks([{ line: 20, weight: 1 }, { line: 0, weight: 1 }], 21), [
      { start: 0, end: 1, weight: 1 },
      { start: 19, end: 20, weight: 1 },
    ]);
  });

  test('a definition shows the start of its body', () => {
    assert.deepEqual(buildChunks([{ line: 4, weight: 2, definition: true }, { line: 30, weight: 1 }], 40), [
      { start: 3, end: 4 + BODY_LINES, weight: 2 },
      { start: 29, end: 31, weight: 1 },
    ]);
  });

  test('a chunk stops at a line boundary before 1024 characters', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(100, 'z'));
    const { text, cut } = renderChunk(lines, { start: 0, end: 19, weight: 1 });
    assert.equal(cut, true);
    assert.ok(text.length <= 1024, `${text.length} characters`);
    assert.equal(text.split('\n').length - 1, 9);
    assert.ok(text.startsWith('1: 0zz'));
  });
});

describe('keyword_search', () => {
  test('renders the file header and the best chunks in line order, apart ones separated', async () => {
    const answer = await callTool(services, keywordSearchTool, { query: 'needle file:chunks' });
    assert.equal(answer.isError, undefined);
    const [section] = answer.text.split('\n\n');
    assert.equal(section, [
      `# ${APP} \u2013 src/chunks.ts`,
      '2: line 2', '3: needle one', '4: needle two needle', '5: line 5', '...',
      '9: line 9', '10: needle ten', '11: line 11', '...',
      '19: line 19', '20: needle twenty', '21: line 21',
    ].join('\n'));
    assert.match(answer.text, /Found 5 matches in 1 file; showing 1 of 1 file\./);
    assert.match(answer.text, /1 more chunk in the files shown/);
  });

  test('cuts long lines at 256 characters with the marker', async () => {
    const answer = await callTool(services, keywordSearchTool, { query: 'longneedle' });
    const line = answer.text.split('\n').find((l) => l.startsWith('2: '))!;
    assert.equal(line, `2: ${'const s = "'.concat('x'.repeat(300)).slice(0, 256)}${LINE_TRUNCATED}`);
  });

  test('cuts a merged chunk at 1024 characters and says so', async () => {
    const answer = await callTool(services, keywordSearchTool, { query: 'dense file:dense' });
    const section = answer.text.split('\n\n')[0]!;
    assert.ok(section.length < 1024 + 100, `${section.length} characters`);
    assert.match(answer.text, /1 chunk cut at 1024 characters; use read_file for the rest\./);
  });

  test('shows at most 15 files a page and ends with the call for the next page', async () => {
    const answer = await callTool(services, keywordSearchTool, { query: 'widespread' });
    assert.equal(answer.text.split('\n').filter((l) => l.startsWith('# ')).length, 15);
    assert.match(answer.text, /Found 20 matches in 20 files; showing 1-15 of 20 files\./);
    assert.match(answer.text, /\n\(more available - call keyword_search with \{"query":"widespread","after":"[\w-]+"\} to see the next ones\)\n$/);
  });

  test('stops at the answer budget and says so; the next page starts after the last file shown', async () => {
    const answer = await callTool(services, keywordSearchTool, { query: 'widespread' }, { maxAnswerTokens: 300 });
    const shown = answer.text.split('\n').filter((l) => l.startsWith('# ')).length;
    assert.ok(shown > 0 && shown < 15, `${shown} files shown`);
    assert.ok(answer.text.length <= 300 * 4, `${answer.text.length} characters`);
    assert.match(answer.text, new RegExp(`showing ${shown === 1 ? '1' : `1-${shown}`} of 20 files \\(the answer budget of 300 tokens is spent\\)\\.`));
    assert.match(answer.text, /call keyword_search with \{"query":"widespread","after":/);
  });

  test('reports a hit result limit with what to do', async () => {
    const answer = await callTool(services, keywordSearchTool, { query: 'widespread count:3' });
    assert.match(answer.text, /The search hit its result limit, so more files may match: add count:all/);
  });

  test('lists repositories for repository searches', async () => {
    const answer = await callTool(services, keywordSearchTool, { query: 'repo:acme' });
    assert.equal(answer.text.split('\n\n')[0], `# ${APP}\n# ${SECRET}`);
    assert.match(answer.text, /Found 2 repositories; showing 1-2 of 2 repositories\./);
  });

  test('shows path matches as headers alone', async () => {
    const answer = await callTool(services, keywordSearchTool, { query: 'needle file:chunks select:file' });
    assert.equal(answer.text.split('\n\n')[0], `# ${APP} \u2013 src/chunks.ts`);
  });

  test('answers no results with a sentence, not an error', async () => {
    const answer = await callTool(services, keywordSearchTool, { query: 'nosuchwordanywhere' });
    assert.equal(answer.isError, undefined);
    assert.match(answer.text, /^No results\. Check the spelling/);
  });

  test('an invalid query is a tool error from the engine', async () => {
    const answer = await callTool(services, keywordSearchTool, { query: 'needle (' });
    assert.equal(answer.isError, true);
    assert.match(answer.text, /unbalanced parenthesis/);
  });

  test('an empty query is a tool error that says what to send, not every file', async () => {
    for (const query of ['', '   ']) {
      const answer = await callTool(services, keywordSearchTool, { query });
      assert.equal(answer.isError, true);
      assert.match(answer.text, /^The query is empty: pass the text or code to find/);
    }
  });

  test('a repository the caller may not read never appears, even in counts', async () => {
    const all = await callTool(services, keywordSearchTool, { query: 'needle -file:long' });
    assert.match(all.text, /in 2 files/);
    const visible = await callTool(services, keywordSearchTool, { query: 'needle -file:long' }, { canRead: notSecret });
    assert.doesNotMatch(visible.text, /secret|classified/);
    assert.match(visible.text, /Found 5 matches in 1 file;/);
    const repos = await callTool(services, keywordSearchTool, { query: 'repo:acme' }, { canRead: notSecret });
    assert.doesNotMatch(repos.text, /secret/);
    const only = await callTool(services, keywordSearchTool, { query: 'classified' }, { canRead: notSecret });
    assert.match(only.text, /^No results\./);
    // A repo: filter naming only a hidden repository reads as a filter that matches nothing, with no hint of it.
    const hidden = await callTool(services, keywordSearchTool, { query: 'repo:acme/secret classified' }, { canRead: notSecret });
    assert.match(hidden.text, /^No repository matches repo:acme\/secret, so nothing was searched\./);
    assert.doesNotMatch(hidden.text, /github\.com\/acme\/secret/);
  });

  test('a chunk inside a function or type says which, unless it shows that header itself', async () => {
    const call = await callTool(services, keywordSearchTool, { query: 'placeprobe(trimmed)' });
    assert.equal(call.text.split('\n\n')[0], [`# ${APP} \u2013 src/router.ts`, '(in method Router.handle)', '3:     const trimmed = path.trim();', '4:     return placeprobe(trimmed);', '5:   }'].join('\n'));
    // Both lines name placeprobe; the second chunk shows the function's own header, so it has no label.
    const header = await callTool(services, keywordSearchTool, { query: 'function placeprobe' });
    assert.equal(header.text.split('\n\n')[0], [
      `# ${APP} \u2013 src/router.ts`, '(in method Router.handle)', '3:     const trimmed = path.trim();', '4:     return placeprobe(trimmed);', '5:   }', '...',
      '7: ', '8: function placeprobe(p: string): string {', '9:   return p;',
    ].join('\n'));
  });

  test('a repo: filter that matches no repository says so and names the closest, instead of "No results"', async () => {
    const typo = await callTool(services, keywordSearchTool, { query: 'repo:acme/ap needle' });
    assert.match(typo.text, /^1: /m, 'a filter matching as a regular expression still searches');
    const none = await callTool(services, keywordSearchTool, { query: 'repo:acme/aqp needle' });
    assert.equal(none.text.trim(), `No repository matches repo:acme/aqp, so nothing was searched. Did you mean ${APP}?`);
    const unknown = await callTool(services, keywordSearchTool, { query: 'repo:nonexistent needle' });
    assert.match(unknown.text, /^No repository matches repo:nonexistent, so nothing was searched\. Use list_repos/);
  });
});
