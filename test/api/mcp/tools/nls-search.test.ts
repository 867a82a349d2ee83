/**
 * nls_search: BM25F ordering on hand-made matches (coverage, path and definition boosts, rarity,
 * word starts, fields, synonyms saturating with their word), and the tool over a real index (terms line, errors, budget, repository visibility, size prior).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FileMatch } from '../../../../src/model/result.js';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { fileRole } from '../../../../src/api/mcp/tools/file-role.js';
import { definedNames, rankFiles, termStarts } from '../../../../src/api/mcp/tools/nls-rank.js';
import { nlsSearchTool } from '../../../../src/api/mcp/tools/nls-search.js';
import { engineQuery, parseNlsQuery } from '../../../../src/api/mcp/tools/nls-terms.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../../e2e/engine-fixture.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../../../git/fixtures.js';
import { callTool, mcpServicesOf } from '../tool-context.js';
import { ENCODER_LINES, HUB_LINES, HUB_QUERY } from './hub-fixture.js';

function fileMatch(path: string, lines: readonly string[]): FileMatch {
  return {
    type: 'content', repository: 'r', repositoryID: 1, commit: 'c'.repeat(40), branches: [], path, language: null,
    lineMatches: lines.map((line, i) => ({ line, lineNumber: i, offsetAndLengths: [[0, 1]] })), pathMatches: [], matchCount: lines.length, score: 0,
  };
}

function order(query: string, files: readonly FileMatch[], collection = 1000): string[] {
  return rankFiles(files, parseNlsQuery(query), collection).map((f) => f.match.path);
}

describe('BM25 ranking', () => {
  test('a file matching more distinct terms beats one repeating a single term', () => {
    const repeats = fileMatch('a.ts', Array.from({ length: 10 }, () => 'login login'));
    const both = fileMatch('b.ts', ['login', 'password']);
    assert.deepEqual(order('login password', [repeats, both]), ['b.ts', 'a.ts']);
  });

  test('a term in the path ranks a file above the same content elsewhere', () => {
    assert.deepEqual(order('cache', [fileMatch('src/store.ts', ['cache']), fileMatch('src/cache.ts', ['cache'])]), ['src/cache.ts', 'src/store.ts']);
  });

  test('the file defining a name ranks above a file calling it', () => {
    const caller = fileMatch('a.ts', ['  const r = parseRequest(raw);']);
    const definer = fileMatch('b.ts', ['export function parseRequest(raw: string) {']);
    assert.deepEqual(order('parse request', [caller, definer]), ['b.ts', 'a.ts']);
  });

  test('a rare term outweighs a common one', () => {
    const common = Array.from({ length: 8 }, (_, i) => fileMatch(`common${i}.ts`, ['alpha']));
    const ranked = order('alpha omega', [...common, fileMatch('z-rare.ts', ['omega'])], 10);
    assert.equal(ranked[0], 'z-rare.ts');
  });

  test('terms count only where they start a word or an identifier part', () => {
    assert.deepEqual(order('user', [fileMatch('a.ts', ['superuser']), fileMatch('b.ts', ['currentUser'])]), ['b.ts']);
    assert.deepEqual(termStarts('parseHTTPRequest http_request xrequest', /request/gi), [9, 22]);
  });

  test('source code outranks tests, documentation, declarations and built copies saying the same, unless the question asks for them', () => {
    const same = ['retry the request after a delay'];
    const files = ['dist/bundle.js', 'CHANGELOG.md', 'docs/guide.md', 'test/a.test.ts', 'types/index.d.ts', 'src/worker.ts'].map((p) => fileMatch(p, same));
    assert.deepEqual(order('retry request delay', files), ['src/worker.ts', 'types/index.d.ts', 'test/a.test.ts', 'CHANGELOG.md', 'docs/guide.md', 'dist/bundle.js']);
    assert.equal(order('tests retry request delay', files)[0], 'test/a.test.ts');
    assert.equal(order('documentation retry request delay', files)[0], 'CHANGELOG.md');
  });

  test('concepts found together in one passage outrank the same concepts scattered through a file', () => {
    // Without the passage, the two tie and the tie goes to a.ts.
    const far = fileMatch('a.ts', ['retry after', 'a delay']);
    const scattered = { ...far, lineMatches: far.lineMatches.map((lm, i) => ({ ...lm, lineNumber: i * 500 })) };
    const together = fileMatch('b.ts', ['retry after', 'a delay']);
    assert.deepEqual(order('retry delay', [scattered, together]), ['b.ts', 'a.ts']);
  });

  test('a word and its synonyms saturate together: saying the word four times outranks saying it once beside three synonyms', () => {
    // Each saturated apart, the word once and three synonyms at a third of its weight would add up to more.
    const synonyms = fileMatch('a.ts', ['remove(key) || delete(key) || erase(key) || drop(key)']);
    const repeated = fileMatch('b.ts', ['remove(a) || remove(b) || remove(c) || remove(d)']);
    assert.deepEqual(order('remove', [synonyms, repeated]), ['b.ts', 'a.ts']);
  });

  test('a term in code outranks the same term inside a string literal', () => {
    const message = fileMatch('a.ts', ['  log("cannot retry");']);
    const code = fileMatch('b.ts', ['  retry(request);']);
    assert.deepEqual(order('retry', [message, code]), ['b.ts', 'a.ts']);
  });

  test('file roles from paths, across languages', () => {
    const roles = ['gin/context_test.go', 'crates/ignore/tests/x.rs', 'tests/test_utils.py', 'src/test/java/CleanerTest.java', '__tests__/a.js', 'tests/base64.test',
      'HISTORY.md', 'docs/api/request.md', 'jq.1.prebuilt', 'ChangeLog', 'dist/bundles/rxjs.umd.js.map', 'lib/x.min.js', 'typings/index.d.ts', 'src/requests/sessions.py', 'crates/core/build.rs']
      .map((p) => fileRole(p));
    assert.deepEqual(roles, ['test', 'test', 'test', 'test', 'test', 'test', 'docs', 'docs', 'docs', 'docs', 'copy', 'copy', 'declarations', 'source', 'source']);
  });

  test('definition lines name what they define', () => {
    const line = 'func (p *Pool) Acquire(ctx context.Context) (*sql.Conn, error) {';
    assert.deepEqual(definedNames(line).map((s) => line.slice(s.start, s.end)), ['Acquire']);
    const java = 'public boolean checkPassword(String raw) {';
    assert.ok(definedNames(java).map((s) => java.slice(s.start, s.end)).includes('checkPassword'));
    assert.deepEqual(definedNames('export async function login(email) {').map((s) => s.start), [22]);
    assert.deepEqual(definedNames('const r = parseRequest(raw);').map((s) => s.start), [6]);
  });
});

const APP = 'github.com/acme/app';
const SECRET = 'github.com/acme/secret';
const DOCS = 'github.com/acme/backoff';
const WALKER = 'github.com/acme/walker';
const HUB = 'github.com/acme/hub';

let fixture: EngineFixture;
let sources: string;
let services: McpServices;

before(async () => {
  fixture = await createEngineFixture({ pool: 'in-thread' });
  sources = makeTempDir('quarry-nls-search');
  const repos: Record<string, Record<string, string>> = {
    [APP]: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`src/token${i}.ts`, `export function rotateToken${i}() {\n  return refreshToken();\n}\n`])),
    [SECRET]: { 'vault.ts': 'export function unsealVault() {}\n' },
    [DOCS]: {
      // A bundle holding more lines of the terms than the engine collects: the source must still be found.
      'dist/bundle.js': Array.from({ length: 4000 }, (_, i) => `function backoffJitter${i}() { return backoff * jitter; }`).join('\n'),
      'CHANGELOG.md': '# Changes\n- backoff jitter is now configurable\n',
      'src/backoff.ts': 'export function backoffWithJitter(attempt: number) {\n  return jitter(attempt);\n}\n',
    },
    // Common words fill more lines than the engine collects before the one file with the rare ones.
    [WALKER]: {
      ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`a/walk${i}.rs`, Array.from({ length: 100 }, (_, n) => `// handle line ${n} of the directory`).join('\n')])),
      'zz/gitignore.rs': 'fn parse_line(line: &str) -> Glob {\n  // a gitignore line starting with ! is a negation\n  negate(line)\n}\n',
    },
    [HUB]: { 'src/document.ts': `${HUB_LINES.join('\n')}\n`, 'src/encoder.ts': `${ENCODER_LINES.join('\n')}\n` },
  };
  for (const [name, files] of Object.entries(repos)) {
    const dir = initRepo(`${sources}/${name.split('/').at(-1)}`);
    writeFiles(dir, files);
    commitAll(dir, 'initial');
    await addAndIndex(fixture, name, dir);
  }
  services = mcpServicesOf(fixture);
});

after(async () => {
  await fixture.engine.close();
  removeDir(fixture.dataDir);
  removeDir(sources);
});

describe('nls_search', () => {
  test('opens with the searched terms and renders chunks like keyword_search', async () => {
    const answer = await callTool(services, nlsSearchTool, { query: 'how are tokens rotated' });
    assert.equal(answer.isError, undefined);
    const lines = answer.text.split('\n');
    assert.equal(lines[0], 'Searched for: token, rotat (stemmed; any term matches)');
    assert.match(lines[2]!, /^# github\.com\/acme\/app – src\/token\d+\.ts$/);
    assert.match(lines[3]!, /^1: export function rotateToken\d+\(\) \{$/);
    assert.match(answer.text, /Found \d+ matches in 12 files; showing 1-12 of 12 files\./);
  });

  test('files holding the rare terms are found when common ones fill the engine\'s line budget first', async () => {
    const query = `repo:^github\\.com/acme/walker$ how is a gitignore line with negation handled for a directory`;
    const single = await fixture.engine.search.search({ query: engineQuery(parseNlsQuery(query)) });
    assert.equal(single.limitHit, true);
    assert.ok(!single.matches.some((m) => 'path' in m && m.path === 'zz/gitignore.rs'), 'one engine search must stop before the rare file for this test to mean anything');
    const answer = await callTool(services, nlsSearchTool, { query });
    assert.equal(answer.isError, undefined);
    assert.equal(answer.text.split('\n').find((l) => l.startsWith('# ')), `# ${WALKER} \u2013 zz/gitignore.rs`);
    // Read again whole, the file is shown by its best lines, the comment naming both rare terms among them.
    assert.ok(answer.text.includes('2:   // a gitignore line starting with ! is a negation'), answer.text);
  });

  test('a short file doing what is asked comes before a long hub mentioning every term, its length read from the index', async () => {
    const answer = await callTool(services, nlsSearchTool, { query: `repo:acme/hub ${HUB_QUERY}` });
    const files = answer.text.split('\n').filter((l) => l.startsWith('# ')).map((l) => l.slice(l.indexOf(' \u2013 ') + 3));
    assert.deepEqual(files, ['src/encoder.ts', 'src/document.ts']);
  });

  test('a query without keywords is a tool error that explains why', async () => {
    const answer = await callTool(services, nlsSearchTool, { query: 'how does it work? repo:acme' });
    assert.equal(answer.isError, true);
    assert.match(answer.text, /^No search terms left in "how does it work\? repo:acme"/);
  });

  test('stops at the answer budget and gives the call for the next page', async () => {
    const answer = await callTool(services, nlsSearchTool, { query: 'rotate token' }, { maxAnswerTokens: 300 });
    const shown = answer.text.split('\n').filter((l) => l.startsWith('# ')).length;
    assert.ok(shown > 0 && shown < 12, `${shown} files shown`);
    assert.match(answer.text, new RegExp(`showing ${shown === 1 ? '1' : `1-${shown}`} of 12 files \\(the answer budget of 300 tokens is spent\\)\\.`));
    assert.match(answer.text, /\(more available - call nls_search with \{"query":"rotate token","after":"[\w-]+"\} to see the next ones\)\n$/);
  });

  test('a repository the caller may not read never appears, even in counts', async () => {
    const seen = await callTool(services, nlsSearchTool, { query: 'unseal vault' });
    assert.match(seen.text, /vault\.ts/);
    const hidden = await callTool(services, nlsSearchTool, { query: 'unseal vault' }, { canRead: (repo) => repo !== SECRET });
    assert.doesNotMatch(hidden.text, /secret|vault\.ts|in 1 file/);
    assert.match(hidden.text, /No results\./);
  });

  test('the implementation comes first, found past a bundle that would spend the line budget; the changelog only when asked', async () => {
    const answer = await callTool(services, nlsSearchTool, { query: 'repo:acme/backoff backoff jitter' });
    const files = answer.text.split('\n').filter((l) => l.startsWith('# ')).map((l) => l.slice(l.indexOf(' \u2013 ') + 3));
    assert.deepEqual(files, ['src/backoff.ts']);
    const changes = await callTool(services, nlsSearchTool, { query: 'repo:acme/backoff changelog backoff jitter' });
    assert.match(changes.text, /# github\.com\/acme\/backoff \u2013 CHANGELOG\.md/);
    const bundle = await callTool(services, nlsSearchTool, { query: 'repo:acme/backoff backoff file:dist/' });
    assert.match(bundle.text, /# github\.com\/acme\/backoff \u2013 dist\/bundle\.js/);
  });

  test('filters narrow the search', async () => {
    const answer = await callTool(services, nlsSearchTool, { query: 'token file:token3\\.ts' });
    assert.equal(answer.text.split('\n').filter((l) => l.startsWith('# ')).length, 1);
  });
});
