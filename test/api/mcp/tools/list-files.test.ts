/** list_files over a real index: direct children as full paths, ordering, the caps, pages, and errors. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { estimateTokens } from '../../../../src/api/mcp/answer.js';
import { listFilesTool } from '../../../../src/api/mcp/tools/list-files.js';
import { getRepo } from '../../../../src/store/repos.js';
import { git } from '../../../git/fixtures.js';
import { callTool, TEST_ORIGIN, type CallOptions } from '../tool-context.js';
import { APP, canRead, createFileToolFixture, SECRET, WIDE_FILES, type FileToolFixture } from './file-fixture.js';

let fx: FileToolFixture;

before(async () => {
  fx = await createFileToolFixture({ wide: true });
});

after(async () => {
  await fx.close();
});

async function list(args: Record<string, unknown>, options: CallOptions = {}) {
  const answer = await callTool(fx.services, listFilesTool, { repo: APP, ...args }, { canRead, ...options });
  assert.ok(estimateTokens(answer.text) <= (options.maxAnswerTokens ?? 8000), 'the answer fits its budget');
  return answer;
}

const tree = (commit: string, path: string): string => `URL: ${TEST_ORIGIN}/${APP}@${commit}/-/tree/${path}\n`;

test('a directory lists its direct children as full paths, directories first, each group in byte order', async () => {
  const expected = `${tree(fx.head, 'src')}src/Alpha/\nsrc/lib/\nsrc/zeta/\nsrc/CheckpointType.java\nsrc/Checkpoints.java\nsrc/router.ts\n`;
  assert.equal((await list({ path: 'src' })).text, expected);
  assert.equal((await list({ path: '/src/' })).text, expected, 'leading and trailing slashes are tolerated');
});

test('the root is the default path', async () => {
  const answer = await list({});
  assert.equal(answer.text, `${tree(fx.head, '')}src/\nwide/\nREADME.md\nbig.txt\nempty.txt\nlogo.bin\nlong-line.txt\nno-newline.txt\n`);
});

test('a revision lists that commit; a missing revision is a tool error', async () => {
  const answer = await list({ path: 'src/lib', revision: 'feature' });
  assert.equal(answer.text, `${tree(fx.feature, 'src/lib')}src/lib/util.ts\n`);
  const bad = await list({ revision: 'nope' });
  assert.equal(bad.isError, true);
  assert.match(bad.text, /^Revision not found: nope in github\.com\/acme\/app/);
});

test('more than 1000 entries: the first 1000, a note saying how many there are, and the call for the next page', async () => {
  const answer = await list({ path: 'wide' }, { maxAnswerTokens: 100_000 });
  const lines = answer.text.trimEnd().split('\n');
  assert.equal(lines[1], 'wide/f0000.txt');
  assert.equal(lines[1000], 'wide/f0999.txt');
  assert.equal(lines[1001], '');
  assert.equal(lines[1002], '(... entries 1-1,000 of 1,200 shown: list_files shows at most 1000 at a time)');
  assert.match(lines[1003]!, new RegExp(`^\\(more available - call list_files with \\{"repo":"${APP}","path":"wide","revision":"${fx.head}","after":"[\\w-]+"\\} to see the next ones\\)$`));
  assert.equal(lines.length, 1004);
});

test('the answer budget cuts the list first, and the note says so', async () => {
  const answer = await list({ path: 'wide' }, { maxAnswerTokens: 1000 });
  const shown = answer.text.split('\n').filter((l) => l.startsWith('wide/')).length;
  assert.ok(shown > 100 && shown < 1000, `${shown} entries shown`);
  assert.match(answer.text, new RegExp(`\\(\\.\\.\\. entries 1-${shown} of 1,200 shown: the answer budget of 1,000 tokens is spent\\)\\n\\(more available - call list_files with`));
});

test('a file path, a missing directory and an unreadable repository are tool errors', async () => {
  const file = await list({ path: 'src/router.ts' });
  assert.equal(file.isError, true);
  assert.match(file.text, /^src\/router\.ts is a file in github\.com\/acme\/app@[0-9a-f]{12}, not a directory\. Use read_file to read it\.$/);
  const missing = await list({ path: 'src/nope' });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /^Directory not found: src\/nope \(github\.com\/acme\/app@[0-9a-f]{12}\)\./);
  const hidden = await list({ repo: SECRET });
  assert.equal(hidden.text, `Repository not found: ${SECRET}. Use list_repos to find repository names.`);
});

const NEXT_CALL = /\n\(more available - call list_files with (\{.*\}) to see the next ones\)\n$/;

/** Follows the next calls the answers end with, exactly as given; the entries of every page. */
async function listPages(args: Record<string, unknown>, maxAnswerTokens: number): Promise<string[][]> {
  const pages: string[][] = [];
  for (let next: Record<string, unknown> | null = args; next !== null;) {
    assert.ok(pages.length < 100, 'the cursors end');
    const answer = await list(next, { maxAnswerTokens });
    assert.equal(answer.isError, undefined, answer.text);
    assert.doesNotMatch(answer.text, /changed since the previous page/);
    pages.push(answer.text.split('\n').slice(1).filter((l) => l !== '' && !l.startsWith('(')));
    const call = NEXT_CALL.exec(answer.text);
    next = call === null ? null : JSON.parse(call[1]!) as Record<string, unknown>;
  }
  return pages;
}

/** The directory as git lists it in the mirror: subdirectories (with a slash) then files, each in byte order. */
function lsTree(path: string): string[] {
  const mirror = join(fx.engine.dataDir, getRepo(fx.engine.engine.store, APP)!.mirrorPath);
  const rows = git(mirror, 'ls-tree', fx.head, path === '' ? '.' : `${path}/`).split('\n').map((row) => {
    const [meta, name] = row.split('\t') as [string, string];
    return meta.split(' ')[1] === 'tree' ? `${name}/` : name;
  });
  const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
  return [...rows.filter((r) => r.endsWith('/')).sort(byBytes), ...rows.filter((r) => !r.endsWith('/')).sort(byBytes)];
}

test('following the cursors lists every entry once, as git ls-tree does, whatever the page size', async () => {
  for (const [path, budget, minPages] of [['wide', 100_000, 2], ['wide', 1000, 4], ['', 166, 3]] as const) {
    const pages = await listPages(path === '' ? {} : { path }, budget);
    assert.ok(pages.length >= minPages, `${path || 'root'} at ${budget} tokens: ${pages.length} pages`);
    for (const page of pages) assert.ok(page.length > 0 && page.length <= 1000, `${page.length} entries on a page`);
    assert.deepEqual(pages.flat(), lsTree(path), `${path || 'root'} at ${budget} tokens`);
  }
  assert.equal(lsTree('wide').length, WIDE_FILES);
});

test('the next call names the commit listed, so later pages list the same tree; its last page says so', async () => {
  const first = await list({ path: 'wide', revision: 'main' }, { maxAnswerTokens: 100_000 });
  const next = JSON.parse(NEXT_CALL.exec(first.text)![1]!) as Record<string, unknown>;
  assert.deepEqual(Object.keys(next), ['repo', 'path', 'revision', 'after']);
  assert.equal(next['revision'], fx.head);
  const last = await list(next, { maxAnswerTokens: 100_000 });
  assert.match(last.text, /\n\(\.\.\. entries 1,001-1,200 of 1,200 shown\)\n$/);
});

test('a cursor for another directory or revision, or one not made by list_files, is a tool error', async () => {
  const first = await list({ path: 'wide' }, { maxAnswerTokens: 1000 });
  const { after: cursor } = JSON.parse(NEXT_CALL.exec(first.text)![1]!) as { after: string };
  const other = await list({ path: 'src', after: cursor });
  assert.equal(other.isError, true);
  assert.equal(other.text, `The after cursor belongs to "list_files ${APP}@${fx.head}:wide", not "list_files ${APP}@${fx.head}:src": repeat that call or start again without a cursor.`);
  const moved = await list({ path: 'wide', revision: 'feature', after: cursor });
  assert.equal(moved.isError, true);
  assert.match(moved.text, new RegExp(`^The after cursor belongs to "list_files ${APP}@${fx.head}:wide", not "list_files ${APP}@${fx.feature}:wide"`));
  for (const bad of ['', 'x', Buffer.from('{"q":1,"i":0}').toString('base64url')]) {
    const answer = await list({ path: 'wide', after: bad });
    assert.equal(answer.isError, true);
    assert.equal(answer.text, 'Invalid after cursor: pass a cursor exactly as a previous list_files answer gave it.');
  }
});
