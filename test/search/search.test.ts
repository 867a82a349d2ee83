/**
 * The query language through the search service: boolean operators, filters, result types,
 * select:, fork:/archived:, unindexed revisions, limits and errors. Over an index held in memory
 * and the in-thread pool; what the LMDB index adds (trigram pruning) is shown by the differential
 * tests against ripgrep.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { FileMatch, SearchResponse } from '../../src/model/result.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';
import { createSearchService } from '../../src/search/service.js';
import { matchedLines } from '../e2e/engine-fixture.js';
import { createMemoryIndex } from './memory-index.js';

const alphaFiles = {
  'main.go': 'package main\n\nfunc main() {\n\tprintln("hello world")\n}\n',
  'util/strings.go': 'package util\n\n// Reverse returns s reversed.\nfunc Reverse(s string) string { return s }\n',
  'web/app.ts': 'export function hello(name: string) {\n  return `Hello ${name}`;\n}\n',
  'README.md': '# Alpha\nSay hello to the world.\n',
  'docs/hello.txt': 'nothing to see\n',
};
const index = createMemoryIndex([
  {
    name: 'github.com/acme/alpha',
    files: { ...alphaFiles, 'main.go': 'package main\n\nfunc main() {\n\tprintln("goodbye world")\n}\n' },
    revisions: { v1: alphaFiles },
    commits: ['goodbye', 'initial'],
  },
  { name: 'github.com/acme/beta', files: { 'lib.py': 'def hello():\n    return "hello"\n', 'setup.py': 'import setuptools\n' } },
  { name: 'github.com/other/forked', files: { 'x.go': 'package x // hello fork\n' }, fork: true },
  { name: 'github.com/other/old', files: { 'y.go': 'package y // hello archive\n' }, archived: true },
]);
const pool = createInThreadEnginePool();
const service = createSearchService({
  catalog: index.catalog,
  runner: pool,
  revisions: index.revisions,
  commits: index.commits,
  matcher: 'auto',
  settings: () => ({ maxResults: 30, maxCount: 500_000, defaultTimeoutMs: 10_000, maxTimeoutMs: 60_000 }),
});

async function search(query: string): Promise<SearchResponse> {
  return service.search({ query });
}

function paths(response: SearchResponse): string[] {
  return response.matches.map((m) => (m.type === 'repo' ? `repo:${m.repository}` : m.type === 'commit' ? `commit:${m.oid}` : `${m.repository.split('/').pop()}:${m.path}`)).sort();
}

after(() => pool.close());

describe('patterns and operators', () => {
  it('keyword terms must all occur, in content or path', async () => {
    assert.deepEqual(paths(await search('hello world')), ['alpha:README.md']);
    assert.deepEqual(paths(await search('hello docs')), ['alpha:docs/hello.txt']);
  });

  it('OR unions, NOT excludes, AND binds tighter than OR', async () => {
    assert.deepEqual(paths(await search('type:file Reverse OR setuptools')), ['alpha:util/strings.go', 'beta:setup.py']);
    assert.deepEqual(paths(await search('type:file hello NOT world')), ['alpha:web/app.ts', 'beta:lib.py']);
    assert.deepEqual(paths(await search('type:file package AND Reverse OR setuptools')), ['alpha:util/strings.go', 'beta:setup.py']);
  });

  it('regex and case sensitivity', async () => {
    assert.deepEqual(paths(await search('type:file /func\\s[A-Z]\\w+/ case:yes')), ['alpha:util/strings.go']);
    assert.deepEqual(paths(await search('type:file case:yes Hello')), ['alpha:web/app.ts']);
    assert.equal(paths(await search('type:file Hello')).length, 3);
  });

  it('content: never matches paths; -content: excludes', async () => {
    assert.deepEqual(paths(await search('content:hello -content:world lang:go')), []);
    assert.deepEqual(paths(await search('type:file content:"hello" -content:"return"')), ['alpha:README.md']);
  });
});

describe('filters', () => {
  it('repo:, -repo:, file:, -file:, lang:, -lang:', async () => {
    assert.deepEqual(paths(await search('type:file hello repo:beta')), ['beta:lib.py']);
    assert.deepEqual(paths(await search('type:file hello -repo:alpha')), ['beta:lib.py']);
    assert.deepEqual(paths(await search('type:file hello file:\\.ts$')), ['alpha:web/app.ts']);
    assert.deepEqual(paths(await search('type:file hello -file:\\.(md|ts)$ repo:alpha')), []);
    assert.deepEqual(paths(await search('type:file hello lang:python')), ['beta:lib.py']);
    assert.deepEqual(paths(await search('type:file hello -lang:python -lang:markdown')), ['alpha:web/app.ts']);
  });

  it('forks and archived repositories are excluded unless asked for', async () => {
    const plain = await search('hello type:file');
    assert.ok(!paths(plain).some((p) => p.startsWith('forked') || p.startsWith('old')));
    assert.deepEqual(plain.skipped.map((s) => s.reason).sort(), ['excluded-archive', 'repository-fork']);
    assert.deepEqual(paths(await search('hello type:file fork:only')), ['forked:x.go']);
    assert.deepEqual(paths(await search('hello type:file archived:only')), ['old:y.go']);
    assert.equal(paths(await search('hello type:file fork:yes archived:yes')).length, paths(plain).length + 2);
  });

  it('type:path matches file names only; type:repo and repo-only queries list repositories', async () => {
    assert.deepEqual(paths(await search('type:path hello')), ['alpha:docs/hello.txt']);
    assert.deepEqual(paths(await search('type:repo acme')), ['repo:github.com/acme/alpha', 'repo:github.com/acme/beta']);
    assert.deepEqual(paths(await search('repo:beta')), ['repo:github.com/acme/beta']);
  });

  it('select:repo and select:file convert results', async () => {
    assert.deepEqual(paths(await search('hello select:repo type:file')), ['repo:github.com/acme/alpha', 'repo:github.com/acme/beta']);
    const files = await search('type:file hello select:file repo:alpha');
    assert.ok(files.matches.every((m) => m.type === 'path'));
  });
});

describe('revisions', () => {
  it('searches the indexed default branch, and an unindexed tag by scanning its tree', async () => {
    assert.deepEqual(matchedLines(await search('repo:alpha type:file goodbye')), ['main.go:4']);
    const old = await search('repo:alpha@v1 type:file "hello world"');
    assert.deepEqual(matchedLines(old), ['main.go:4']);
    assert.ok(old.matches.every((m) => m.type !== 'repo' && (m as FileMatch).branches[0] === 'v1'));
  });

  it('an unknown revision is a clear error', async () => {
    await assert.rejects(search('repo:alpha@nope hello'), (err: Error & { code?: string }) => err.code === 'REVISION_NOT_FOUND');
  });
});

describe('limits and errors', () => {
  it('count: stops early and reports limitHit with a suggestion', async () => {
    const limited = await search('type:file count:1 hello');
    assert.equal(limited.matchCount, 1);
    assert.equal(limited.limitHit, true);
    assert.ok(limited.skipped.some((s) => s.reason === 'shard-match-limit' && s.suggested?.queryExpression === 'count:all'));
  });

  it('a malformed query is a QUERY_SYNTAX error naming the position; a bad commit date is INVALID_ARGUMENT', async () => {
    await assert.rejects(search('(hello'), (err: Error & { code?: string }) => err.code === 'QUERY_SYNTAX' && /position/.test(err.message));
    await assert.rejects(search('type:commit after:whenever fix'), (err: Error & { code?: string }) => err.code === 'INVALID_ARGUMENT');
    await assert.rejects(search('/a(/'), (err: Error & { code?: string }) => err.code === 'PATTERN_INVALID');
  });

  it('a glob in file: is answered with the regular expression it means, which then works', async () => {
    await assert.rejects(search('hello file:*.py'), (err: Error & { code?: string }) => err.code === 'PATTERN_INVALID' && err.message === 'file:*.py is a glob, but file: takes a regular expression: for this glob use file:\\.py$');
    await assert.rejects(search('hello file:util/**/*.go'), (err: Error) => err.message.endsWith('use file:^util/(.*/)?[^/]*\\.go$'));
    assert.deepEqual(paths(await search('type:file hello file:\\.py$')), ['beta:lib.py']);
    assert.deepEqual(paths(await search('type:file reverse file:^util/(.*/)?[^/]*\\.go$')), ['alpha:util/strings.go']);
  });

  it('stats travel with results', async () => {
    const r = await search('type:file hello');
    assert.ok(r.stats.candidates >= r.matches.length);
    assert.ok(r.stats.shardsSearched >= 1);
    assert.deepEqual(r.stats.matchers, ['hyperscan']);
    assert.match(r.query, /hello/);
  });
});

describe('repository visibility', () => {
  it('a caller never sees, nor counts, repositories it may not read', async () => {
    const canRead = (repo: string): boolean => repo !== 'github.com/acme/beta';
    const hidden = await service.search({ query: 'type:file hello', canRead });
    assert.deepEqual(paths(hidden), ['alpha:README.md', 'alpha:web/app.ts']);
    const repos = await service.search({ query: 'type:repo acme', canRead });
    assert.deepEqual(paths(repos), ['repo:github.com/acme/alpha']);
    const visible = await service.search({ query: 'type:file hello' });
    assert.equal(hidden.stats.shardsSkipped, visible.stats.shardsSkipped, 'hidden repositories are not counted as skipped either');
  });
});
