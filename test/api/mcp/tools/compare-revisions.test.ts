/**
 * compare_revisions between two tags of a release-like history where CI, lock, vendored and built
 * files change far more than the one source file that matters: the file list equals
 * `git diff --numstat`, source hunks come before CI and lock files, hunks left out are named with
 * the exact call that shows them, `paths` globs filter as git's glob pathspecs do, and the `after`
 * cursor visits every file once.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { changeKind } from '../../../../src/api/mcp/tools/change-order.js';
import { compareRevisionsTool } from '../../../../src/api/mcp/tools/compare-revisions.js';
import { BINARY_CONTENT, git, initRepo, makeTempDir, removeDir } from '../../../git/fixtures.js';
import { applyStep, T0 } from '../../../history/scripted-repo.js';
import { historyServices, type HistoryServices } from './history-services.js';
import { callTool } from '../tool-context.js';

const APP = 'example.com/release';
const ODD = 'src/odd[1]*.go';

const lines = (prefix: string, n: number): string => Array.from({ length: n }, (_, i) => `${prefix} ${i}`).join('\n') + '\n';

let tmp: string;
let work: string;
let history: HistoryServices;
let services: McpServices;
before(() => {
  tmp = makeTempDir('quarry-compare');
  work = initRepo(join(tmp, 'work'));
  applyStep(work, {
    author: 'alice', date: T0, message: 'v1', files: {
      '.github/workflows/ci.yml': lines('step: run', 50), 'package-lock.json': lines('"dep": "1.0.0",', 400), 'go.sum': lines('example.com/mod v1.0.0 h1:abc=', 200),
      'vendor/lib/x.go': lines('package lib // v1', 30), 'dist/app.min.js': lines('var a=1;', 40), 'docs/guide.md': '# Guide\n\nOld words.\n',
      'src/server.go': 'package main\n\nfunc serve() {\n\tlisten(8080)\n}\n', 'src/util/strings.go': lines('// helper', 20), 'src/gone.go': 'package main\n',
      'test/server_test.go': 'package main\n// old test\n', 'assets/logo.bin': BINARY_CONTENT, [ODD]: 'package main\n',
    },
  });
  git(work, 'tag', 'v1');
  applyStep(work, {
    author: 'bob', date: T0 + 3600, message: 'v2', remove: ['src/gone.go'], rename: ['src/util/strings.go', 'src/strings.go'], files: {
      '.github/workflows/ci.yml': lines('step: run again', 60), 'package-lock.json': lines('"dep": "2.0.0",', 420), 'go.sum': lines('example.com/mod v2.0.0 h1:def=', 210),
      'vendor/lib/x.go': lines('package lib // v2', 30), 'dist/app.min.js': lines('var b=2;', 40), 'docs/guide.md': '# Guide\n\nNew words.\n',
      'src/server.go': 'package main\n\nfunc serve() {\n\tlisten(9090) // the fix that matters\n}\n', 'test/server_test.go': 'package main\n// new test\n',
      'assets/logo.bin': Buffer.concat([BINARY_CONTENT, BINARY_CONTENT]), [ODD]: 'package main\n// odd\n', 'src/new.go': 'package main\n\nfunc added() {}\n',
    },
  });
  git(work, 'tag', 'v2');
  history = historyServices({ [APP]: join(work, '.git') }, join(tmp, 'data'));
  services = history.services;
});
after(async () => {
  await history.close();
  removeDir(tmp);
});

const compare = (args: Record<string, unknown>, maxAnswerTokens?: number) =>
  callTool(services, compareRevisionsTool, { repo: APP, base: 'v1', head: 'v2', ...args }, maxAnswerTokens === undefined ? {} : { maxAnswerTokens });

/** `git diff --numstat -M v1...v2 [-- pathspecs]` as path → "+a -d" or "binary". */
function numstat(...pathspecs: string[]): Map<string, string> {
  const fields = git(work, 'diff', '--numstat', '-z', '-M', 'v1...v2', '--', ...pathspecs).split('\0');
  const out = new Map<string, string>();
  for (let i = 0; i < fields.length; i++) {
    if (fields[i] === '') continue;
    const [added, deleted, path] = fields[i]!.split('\t') as [string, string, string];
    const name = path === '' ? fields[(i += 2)]! : path;
    out.set(name, added === '-' ? 'binary' : `+${added} -${deleted}`);
  }
  return out;
}

/** The file list of an answer as path → counts, in order. */
function listed(text: string): [string, string][] {
  return [...text.matchAll(/^[AMDRC] (\+\d+ -\d+|binary) (.+?)(?: \(from .+?\))?(?: \[[^\]]+\])?$/gm)].map((m) => [m[2]!, m[1]!]);
}

const sections = (text: string): string[] => [...text.matchAll(/^# \S+ \u2013 (.+) \((?:added|deleted|modified|renamed|copied)[^)]*\)$/gm)].map((m) => m[1]!);

test('every changed file is listed with the +/- counts of git diff --numstat, source first', async () => {
  const answer = await compare({});
  assert.equal(answer.isError, undefined, answer.text);
  const expected = numstat();
  assert.equal(expected.size, 13);
  assert.deepEqual(new Map(listed(answer.text)), expected);
  const ranks = listed(answer.text).map(([path]) => ['source', 'test', 'docs'].indexOf(changeKind(path)) + 1 || 4);
  assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b), 'source, then tests, then docs, then CI, lock and generated files');
  assert.match(answer.text, /^M \+\d+ -\d+ package-lock\.json \[lock file\]$/m);
  assert.match(answer.text, /^R \+0 -0 src\/strings\.go \(from src\/util\/strings\.go\)$/m);
});

test('the budget goes to source hunks before CI and lock files; what is left out is named with the call that shows it', async () => {
  const answer = await compare({}, 2000);
  const shown = sections(answer.text);
  assert.ok(shown.includes('src/server.go'), shown.join(', '));
  assert.match(answer.text, /\+\tlisten\(9090\) \/\/ the fix that matters/);
  const firstLow = shown.findIndex((path) => !['source', 'test', 'docs'].includes(changeKind(path)));
  assert.ok(firstLow === -1 || shown.slice(firstLow).every((path) => !['source', 'test', 'docs'].includes(changeKind(path))), shown.join(', '));
  assert.ok(!shown.includes('package-lock.json'));
  const note = /Hunks not shown for \d+ files?, the answer budget of 2,?000 tokens being spent: (.+?)\. To see them, call compare_revisions with repo: "([^"]+)", base: "v1", head: "v2", paths: (\[.+?\])/.exec(answer.text);
  assert.ok(note, answer.text.slice(-800));
  assert.ok(note[1]!.includes('package-lock.json'));
  const paths = JSON.parse(note[3]!) as string[];
  const followUp = await compare({ paths: paths.slice(0, 1) }, 2000);
  assert.deepEqual(listed(followUp.text).map(([path]) => `/${path}`), paths.slice(0, 1));
  assert.match(followUp.text, /^# \S+ \u2013 \S+ \((?:modified|added|deleted)[^)]*\)$|are cut short/m);
});

test('paths: globs select files as git glob pathspecs do, with the totals of the selection', async () => {
  for (const [globs, pathspecs] of [
    [['src/**'], [':(glob)src/**']],
    [['*.go'], [':(glob)**/*.go']],
    [['/go.sum', 'docs'], [':(glob)go.sum', ':(glob)**/docs/**']],
    [['src/*.go', 'src/util/**'], [':(glob)src/*.go', ':(glob)src/util/**']],
  ] as const) {
    const answer = await compare({ paths: globs });
    const expected = numstat(...pathspecs);
    assert.ok(expected.size > 0);
    assert.deepEqual(new Map(listed(answer.text)), expected, globs.join(' '));
    assert.match(answer.text, new RegExp(`^${expected.size} files? matching paths .+ changed .+ \\(13 files changed in all\\)\\.$`, 'm'));
  }
  // Unlike a git pathspec, which sees only the new side and calls it an addition, a rename matches by either path and stays a rename.
  assert.match((await compare({ paths: ['src/*.go'] })).text, /^R \+0 -0 src\/strings\.go \(from src\/util\/strings\.go\)$/m);
  const odd = await compare({ paths: ['/src/odd[[]1][*].go'] });
  assert.deepEqual(listed(odd.text).map(([path]) => path), [ODD]);
  const none = await compare({ paths: ['*.rs'] });
  assert.match(none.text, /No changed file matches paths \["\*\.rs"\]; 13 files changed in all/);
  const blank = await compare({ paths: ['  '] });
  assert.deepEqual([blank.isError, /path glob "  " is empty/.test(blank.text)], [true, true]);
});

test('the after cursor visits every file once, and belongs to its own paths filter', async () => {
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const answer = await compare({ first: 4, ...(cursor === undefined ? {} : { after: cursor }) });
    assert.equal(answer.isError, undefined, answer.text);
    seen.push(...listed(answer.text).map(([path]) => path));
    cursor = /after: "([\w-]+)"/.exec(answer.text)?.[1];
    pages++;
  } while (cursor !== undefined && pages < 20);
  assert.equal(pages, 4);
  assert.deepEqual([...seen].sort(), [...numstat().keys()].sort());
  const first = await compare({ first: 2 });
  const other = await compare({ first: 2, paths: ['src/**'], after: /after: "([\w-]+)"/.exec(first.text)![1]! });
  assert.deepEqual([other.isError, /cursor belongs to/.test(other.text)], [true, true]);
});
