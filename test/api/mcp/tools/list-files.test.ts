/** list_files over a real index: direct children as full paths, ordering, the caps, and errors. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { estimateTokens } from '../../../../src/api/mcp/answer.js';
import { listFilesTool } from '../../../../src/api/mcp/tools/list-files.js';
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

test('more than 1000 entries: the first 1000 and a note saying how many are missing', async () => {
  const answer = await list({ path: 'wide' }, { maxAnswerTokens: 100_000 });
  const lines = answer.text.trimEnd().split('\n');
  assert.equal(lines[1], 'wide/f0000.txt');
  assert.equal(lines[1000], 'wide/f0999.txt');
  assert.equal(lines[1001], '');
  assert.match(lines[1002]!, /^\(\.\.\. 1,000 of 1,200 entries shown, 200 entries missing: list_files shows at most 1000; /);
});

test('the answer budget cuts the list first, and the note says so', async () => {
  const answer = await list({ path: 'wide' }, { maxAnswerTokens: 1000 });
  const shown = answer.text.split('\n').filter((l) => l.startsWith('wide/')).length;
  assert.ok(shown > 100 && shown < 1000, `${shown} entries shown`);
  assert.match(answer.text, new RegExp(`\\(\\.\\.\\. ${shown} of 1,200 entries shown, ${(WIDE_FILES - shown).toLocaleString('en-US')} entries missing: the answer budget of 1,000 tokens is spent;`));
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
