/** commit_search and get_contributor_repos over a real engine: answers, visibility, errors, limits. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { commitSearchTool } from '../../../../src/api/mcp/tools/commit-search.js';
import { getContributorReposTool } from '../../../../src/api/mcp/tools/get-contributor-repos.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../../e2e/engine-fixture.js';
import { git, makeTempDir, removeDir } from '../../../git/fixtures.js';
import { buildScriptedRepo, gitLogOids } from '../../../history/scripted-repo.js';
import { callTool, mcpServicesOf } from '../tool-context.js';

const DEMO = 'example.com/demo';
const SECRET = 'example.com/secret';
let engine: EngineFixture;
let tmp: string;
let work: string;
let services: McpServices;
const canRead = (repo: string): boolean => repo !== SECRET;

before(async () => {
  engine = await createEngineFixture({ pool: 'in-thread' });
  tmp = makeTempDir('quarry-mcp-history');
  work = buildScriptedRepo(join(tmp, 'demo'));
  await addAndIndex(engine, DEMO, work);
  await addAndIndex(engine, SECRET, work);
  services = { ...mcpServicesOf(engine), history: engine.engine.history };
});

after(async () => {
  await engine.engine.close();
  removeDir(engine.dataDir);
  removeDir(tmp);
});

const commitSearch = (args: Record<string, unknown>, maxAnswerTokens?: number) =>
  callTool(services, commitSearchTool, args, { canRead, ...(maxAnswerTokens ? { maxAnswerTokens } : {}) });

const shortHashes = (text: string): string[] => [...text.matchAll(/^\S+ ([0-9a-f]{10}) /gm)].map((m) => m[1]!);

test('one block per commit, newest first, with the exact total', async () => {
  const answer = await commitSearch({ repos: [DEMO], messageTerms: ['fix'], authors: ['alice', 'dave'] });
  assert.equal(answer.isError, undefined);
  const expected = git(work, 'log', '-i', '-F', '--grep=fix', '--author=alice', '--author=dave', '--format=%h', '--abbrev=10', 'HEAD').split('\n');
  assert.deepEqual(shortHashes(answer.text), expected);
  assert.match(answer.text, /^example\.com\/demo [0-9a-f]{10} \d{4}-\d{2}-\d{2} Alice Liddell <alice@wonder\.land>\n {4}fix: handle empty input in parser\n/m);
  assert.match(answer.text, new RegExp(`${expected.length} commits matched\\.`));
});

test('count cuts and says how many more match', async () => {
  const answer = await commitSearch({ repos: [DEMO], count: 2 });
  assert.equal(shortHashes(answer.text).length, 2);
  assert.match(answer.text, new RegExp(`Showing commits 1-2 of ${gitLogOids(work, 'HEAD').length}\\.\nMore commits match: call commit_search with the same arguments and cursor: "[\\w-]+" \\(or raise count, up to 100\\)`));
});

test('dates, files and revisions narrow the search', async () => {
  const answer = await commitSearch({ repos: [DEMO], files: ['tokenizer'], revisions: ['feature'], after: '2023-11-20', before: 'november 30 2023' });
  const expected = git(work, 'log', '--since=2023-11-20T00:00:00Z', '--until=2023-11-30T00:00:00Z', '--format=%h', '--abbrev=10', 'feature', '--', 'src/tokenizer.ts').split('\n');
  assert.deepEqual(shortHashes(answer.text), expected);
  assert.equal(expected.length, 2);
});

test('an unreadable repository answers exactly like a missing one', async () => {
  const hidden = await commitSearch({ repos: [SECRET] });
  const missing = await commitSearch({ repos: ['example.com/nope'] });
  assert.equal(hidden.isError, true);
  assert.equal(hidden.text.replace(SECRET, 'X'), missing.text.replace('example.com/nope', 'X'));
});

test('bad dates, revisions and patterns are tool errors', async () => {
  assert.match((await commitSearch({ repos: [DEMO], after: 'the other day' })).text, /cannot read "the other day" as a date/);
  assert.match((await commitSearch({ repos: [DEMO], revisions: ['nope'] })).text, /revision not found|nope/);
  assert.match((await commitSearch({ repos: [DEMO], messageTerms: ['('], useRegex: true })).text, /invalid regular expression/);
  assert.equal((await commitSearch({ repos: [DEMO], count: 101 })).isError, true);
});

test('a small answer budget keeps whole blocks and says so', async () => {
  const answer = await commitSearch({ repos: [DEMO] }, 250);
  assert.ok(shortHashes(answer.text).length >= 1);
  assert.match(answer.text, /answer budget of 250 tokens is spent/);
});

test('get_contributor_repos lists readable repositories with counts and latest date', async () => {
  const answer = await callTool(services, getContributorReposTool, { authors: ['CAROL@space'] }, { canRead });
  const count = gitLogOids(work, '-i', '--author=carol@space', 'HEAD').length;
  const latest = git(work, 'log', '-1', '-i', '--author=carol@space', '--format=%as', 'HEAD');
  assert.equal(answer.text, `${DEMO} - ${count} commits, latest ${latest}\n`);
  const legacy = await callTool(services, getContributorReposTool, { author: 'carol', minCommits: count + 1 }, { canRead });
  assert.match(legacy.text, /^No repositories have commits by "carol"/);
  assert.equal((await callTool(services, getContributorReposTool, {}, { canRead })).isError, true);
  const both = await callTool(services, getContributorReposTool, { author: 'dave' }, { canRead: () => true });
  assert.equal(both.text.split('\n').filter((l) => l !== '').length, 2);
});
