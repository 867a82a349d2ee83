/** read_file over a real index: numbering, ranges, revisions, errors, binary and large files, the budget. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { estimateTokens } from '../../../../src/api/mcp/answer.js';
import { LINE_TRUNCATED } from '../../../../src/api/mcp/format.js';
import { readFileTool } from '../../../../src/api/mcp/tools/read-file.js';
import { callTool, TEST_ORIGIN, type CallOptions } from '../tool-context.js';
import { APP, BIG_LINES, canRead, createFileToolFixture, SECRET, type FileToolFixture } from './file-fixture.js';

let fx: FileToolFixture;

before(async () => {
  fx = await createFileToolFixture();
});

after(async () => {
  await fx.close();
});

async function read(args: Record<string, unknown>, options: CallOptions = {}) {
  const answer = await callTool(fx.services, readFileTool, { repo: APP, ...args }, { canRead, ...options });
  assert.ok(estimateTokens(answer.text) <= (options.maxAnswerTokens ?? 8000), 'the answer fits its budget');
  return answer;
}

const blob = (commit: string, path: string, range = ''): string => `URL: ${TEST_ORIGIN}/${APP}@${commit}/-/blob/${path}${range}\n`;

test('a whole file is numbered from 1 and ends with the numbered empty line after its final newline', async () => {
  const answer = await read({ path: 'src/router.ts' });
  assert.equal(answer.isError, undefined);
  assert.equal(answer.text, `${blob(fx.head, 'src/router.ts')}1: export class Router {\n2:   route(path: string): string {\n3:     return path;\n4:   }\n5: }\n6: \n`);
});

test('a range shows just its lines, with the range in the URL; a range ending early has no extra line', async () => {
  assert.equal((await read({ path: 'src/router.ts', startLine: 2, endLine: 3 })).text, `${blob(fx.head, 'src/router.ts', '%3FL2-3')}2:   route(path: string): string {\n3:     return path;\n`);
  assert.equal((await read({ path: '/src/router.ts', startLine: 4 })).text, `${blob(fx.head, 'src/router.ts', '%3FL4-5')}4:   }\n5: }\n6: \n`);
  assert.equal((await read({ path: 'src/router.ts', startLine: 5, endLine: 99 })).text, `${blob(fx.head, 'src/router.ts', '%3FL5-5')}5: }\n6: \n`);
});

test('a file without a final newline has no extra line; an empty file says so', async () => {
  assert.equal((await read({ path: 'no-newline.txt' })).text, `${blob(fx.head, 'no-newline.txt')}1: one\n2: two\n`);
  assert.equal((await read({ path: 'empty.txt' })).text, `${blob(fx.head, 'empty.txt')}(the file is empty)\n`);
});

test('bad line ranges are tool errors that say what is wrong', async () => {
  const past = await read({ path: 'src/router.ts', startLine: 9 });
  assert.equal(past.isError, true);
  assert.match(past.text, /startLine 9 is past the end of src\/router\.ts: the file has 5 lines/);
  const reversed = await read({ path: 'src/router.ts', startLine: 3, endLine: 2 });
  assert.equal(reversed.isError, true);
  assert.match(reversed.text, /endLine \(2\) is before startLine \(3\)/);
  const zero = await read({ path: 'src/router.ts', startLine: 0 });
  assert.equal(zero.isError, true);
  assert.match(zero.text, /"startLine" must be at least 1/);
});

test('missing files and directories get errors pointing at list_files', async () => {
  const missing = await read({ path: 'src/nope.ts' });
  assert.equal(missing.isError, true);
  assert.equal(missing.text, `File not found: src/nope.ts (${APP}@${fx.head.slice(0, 12)}). Use list_files to see the directory.`);
  const dir = await read({ path: 'src/lib/' });
  assert.equal(dir.isError, true);
  assert.match(dir.text, /^src\/lib is a directory in github\.com\/acme\/app@[0-9a-f]{12}, not a file\. Use list_files/);
  assert.match((await read({ path: '/' })).text, /^The repository root is a directory/);
});

test('an unreadable repository answers exactly like a missing one', async () => {
  const hidden = await read({ repo: SECRET, path: 'secret.ts' });
  const missing = await read({ repo: 'github.com/acme/nope', path: 'secret.ts' });
  assert.equal(hidden.isError, true);
  assert.equal(hidden.text, `Repository not found: ${SECRET}. Use list_repos to find repository names.`);
  assert.equal(missing.text, hidden.text.replace(SECRET, 'github.com/acme/nope'));
  const allowed = await callTool(fx.services, readFileTool, { repo: SECRET, path: 'secret.ts' });
  assert.equal(allowed.isError, undefined, 'the same repository is readable when canRead allows it');
});

test('revisions: a branch, the full default commit, and a missing revision', async () => {
  assert.equal((await read({ path: 'README.md', revision: 'feature' })).text, `${blob(fx.feature, 'README.md')}1: # app on a feature branch\n2: \n`);
  assert.equal((await read({ path: 'README.md', revision: fx.head })).text, `${blob(fx.head, 'README.md')}1: # app\n2: Uses the Router.\n3: \n`);
  const bad = await read({ path: 'README.md', revision: 'no-such-branch' });
  assert.equal(bad.isError, true);
  assert.match(bad.text, /^Revision not found: no-such-branch in github\.com\/acme\/app\./);
});

test('an empty repository is a clear tool error', async () => {
  const services = { ...fx.services, defaultCommit: async () => null };
  const answer = await callTool(services, readFileTool, { repo: APP, path: 'README.md' });
  assert.equal(answer.isError, true);
  assert.match(answer.text, /github\.com\/acme\/app is empty: it has no commits/);
});

test('a binary file is reported with its size and no content', async () => {
  assert.equal((await read({ path: 'logo.bin' })).text, `${blob(fx.head, 'logo.bin')}(binary file, 3,000 bytes: its content is not shown)\n`);
});

test('a whole file over 128 KB shows its first 200 lines and says how to read the rest', async () => {
  const answer = await read({ path: 'big.txt' }, { maxAnswerTokens: 100_000 });
  const lines = answer.text.split('\n');
  assert.equal(lines[1], `1: ${BIG_LINES[0]}`);
  assert.equal(lines[200], `200: ${BIG_LINES[199]}`);
  assert.ok(!answer.text.includes(`201: `));
  assert.match(answer.text, /\(big\.txt is 183,000 bytes, over the 128 KB limit for reading a whole file: showing lines 1-200 of 3000; call read_file with startLine and endLine to read more, e.g\. startLine: 201, endLine: 400\)\n$/);
});

test('a range larger than the budget is cut at a whole line, and the notice says where to continue', async () => {
  const answer = await read({ path: 'big.txt', startLine: 10, endLine: 3000 }, { maxAnswerTokens: 2000 });
  const notice = /\(showing lines 10-(\d+) of 3000: the answer budget of 2,000 tokens is spent; call read_file with startLine: (\d+), endLine: 3000 to continue\)\n$/.exec(answer.text);
  assert.ok(notice, answer.text.slice(-300));
  const last = Number(notice[1]);
  assert.equal(Number(notice[2]), last + 1);
  assert.ok(answer.text.includes(`\n${last}: ${BIG_LINES[last - 1]}\n`), 'the last line shown is whole');
  const next = await read({ path: 'big.txt', startLine: last + 1, endLine: 3000 }, { maxAnswerTokens: 2000 });
  assert.equal(next.text.split('\n')[1], `${last + 1}: ${BIG_LINES[last]}`);
});

test('a line longer than any answer is cut with a marker; others stay whole', async () => {
  const answer = await read({ path: 'long-line.txt' }, { maxAnswerTokens: 2000 });
  const [, first, second] = answer.text.split('\n');
  assert.equal(first, '1: short');
  assert.ok(second!.startsWith('2: yyyy') && second!.endsWith(LINE_TRUNCATED), second!.slice(-40));
  assert.match(answer.text, /call read_file with startLine: 3 to continue\)\n$/);
  assert.equal((await read({ path: 'long-line.txt', startLine: 3 }, { maxAnswerTokens: 2000 })).text, `${blob(fx.head, 'long-line.txt', '%3FL3-3')}3: after\n4: \n`);
});

test('a budget too small even for the URL answers with a notice alone', async () => {
  assert.equal((await read({ path: 'README.md' }, { maxAnswerTokens: 160 })).text, '(the answer budget of 160 tokens is too small to show README.md)\n');
});
