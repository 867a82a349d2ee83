/**
 * `type:symbol` and `select:symbol` over real indexed repositories in several languages: exact
 * symbols, ranking, filters, kinds, limits, access control, unindexed revisions, and that symbol
 * search reads the name index instead of decoding every document.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { syncRepository } from '../../src/repos/registry.js';
import type { FileMatch, SearchResponse } from '../../src/model/result.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../e2e/engine-fixture.js';

let fixture: EngineFixture;
const dirs: string[] = [];
const SECRET = 'github.com/acme/secret';
const notSecret = (repo: string): boolean => repo !== SECRET;

function repo(files: Record<string, string>): string {
  const dir = makeTempDir('quarry-symsearch-src');
  dirs.push(dir);
  initRepo(dir);
  writeFiles(dir, files);
  commitAll(dir, 'initial');
  return dir;
}

function search(query: string, canRead: (repo: string) => boolean = notSecret): Promise<SearchResponse> {
  return fixture.engine.search.search({ query, canRead });
}

/** "path name KIND line(1-based) container" per symbol, in result order. */
function symbols(response: SearchResponse): string[] {
  return response.matches.flatMap((m) => {
    assert.equal(m.type, 'symbol');
    const file = m as FileMatch;
    return (file.symbols ?? []).map((s) => `${file.path} ${s.name} ${s.kind} ${s.range.startLine + 1} ${s.containerName ?? '-'}`);
  });
}

const SERVER_TS = [
  'export class Server {',
  '  handle(req: string): string {',
  '    const local = req;',
  '    return local;',
  '  }',
  '}',
  'export function startServer(): Server {',
  '  return new Server();',
  '}',
  'function serverHelper() {}',
  '',
].join('\n');
const MAIN_GO = 'package main\n\ntype Server struct {\n\tPort int\n}\n\nfunc NewServer() *Server {\n\treturn &Server{}\n}\n';
const SERVER_PY = 'class ServerConfig:\n    def load(self):\n        pass\n\n\ndef server_main():\n    pass\n';

before(async () => {
  fixture = await createEngineFixture({ pool: 'in-thread' });
  const sym = repo({
    'src/server.ts': SERVER_TS,
    'cmd/main.go': MAIN_GO,
    'lib/server.py': SERVER_PY,
    'src/uses.ts': "import { Server } from './server';\nconst s = new Server();\n",
    'docs/notes.md': 'Server Server Server\n',
    'defs/deeply/nested/ui/implementation.ts': 'export class Widget {}\n',
    'm.ts': 'function useIt() { return new Widget(); }\nlet w = Widget;\n',
  });
  await addAndIndex(fixture, 'github.com/acme/sym', sym);
  git(sym, 'tag', 'v1');
  writeFiles(sym, { 'cmd/main.go': MAIN_GO.replace('NewServer', 'MakeServer') });
  commitAll(sym, 'rename');
  await syncRepository({ dataDir: fixture.dataDir, store: fixture.engine.store }, 'github.com/acme/sym');
  await fixture.indexRepo('github.com/acme/sym');
  await addAndIndex(fixture, SECRET, repo({ 'secret.ts': 'export function Server() {}\n' }));
});

after(async () => {
  await fixture.engine.close();
  for (const d of dirs) removeDir(d);
  removeDir(fixture.dataDir);
});

describe('type:symbol', () => {
  it('finds non-local definitions whose name matches, ranked exact > prefix > substring', async () => {
    const response = await search('type:symbol server');
    assert.deepEqual(symbols(response), [
      'cmd/main.go Server CLASS 3 -',
      'cmd/main.go MakeServer FUNCTION 7 -',
      'src/server.ts Server CLASS 1 -',
      'src/server.ts startServer FUNCTION 7 -',
      'src/server.ts serverHelper FUNCTION 10 -',
      'lib/server.py ServerConfig CLASS 1 -',
      'lib/server.py server_main FUNCTION 6 -',
    ]);
    assert.equal(response.matchCount, 7);
    assert.equal(response.limitHit, false);
  });

  it('applies case rules and regular expressions to names', async () => {
    // Both are prefix hits; the Python function is exported, the TypeScript one is not.
    assert.deepEqual(symbols(await search('type:symbol case:yes server')), ['lib/server.py server_main FUNCTION 6 -', 'src/server.ts serverHelper FUNCTION 10 -']);
    assert.deepEqual(symbols(await search('type:symbol patterntype:regexp ^(handle|load)$')), ['lib/server.py load METHOD 2 ServerConfig', 'src/server.ts handle METHOD 2 Server']);
  });

  it('honours file:, lang:, repo: and negated terms', async () => {
    assert.deepEqual(symbols(await search('type:symbol server lang:go')), ['cmd/main.go Server CLASS 3 -', 'cmd/main.go MakeServer FUNCTION 7 -']);
    assert.deepEqual(symbols(await search('type:symbol server file:\\.py$')), ['lib/server.py ServerConfig CLASS 1 -', 'lib/server.py server_main FUNCTION 6 -']);
    assert.deepEqual(symbols(await search('type:symbol server -file:src/ -file:cmd/')), ['lib/server.py ServerConfig CLASS 1 -', 'lib/server.py server_main FUNCTION 6 -']);
    assert.deepEqual(symbols(await search('type:symbol repo:nomatch server')), []);
    assert.deepEqual(symbols(await search('type:symbol server NOT config lang:python')), ['lib/server.py server_main FUNCTION 6 -']);
  });

  it('select:symbol.<kind> keeps only that kind', async () => {
    assert.deepEqual(symbols(await search('type:symbol server select:symbol.class')), [
      'cmd/main.go Server CLASS 3 -', 'src/server.ts Server CLASS 1 -', 'lib/server.py ServerConfig CLASS 1 -',
    ]);
    assert.deepEqual(symbols(await search('type:symbol select:symbol.method repo:acme/sym')), ['lib/server.py load METHOD 2 ServerConfig', 'src/server.ts handle METHOD 2 Server']);
    assert.deepEqual(symbols(await search('type:symbol server select:symbol.struct')), []);
  });

  it('stops at count: and reports the limit', async () => {
    const response = await search('type:symbol server count:2');
    assert.equal(response.matchCount, 2);
    assert.equal(response.limitHit, true);
    assert.equal(symbols(response).length, 2);
  });

  it('never returns repositories the caller may not read', async () => {
    assert.ok(!(await search('type:symbol Server')).matches.some((m) => m.repository === SECRET));
    const all = await search('type:symbol Server', () => true);
    assert.deepEqual(all.matches.filter((m) => m.repository === SECRET).map((m) => (m as FileMatch).path), ['secret.ts']);
  });

  it('reads the name index: only documents defining a matching name are decoded', async () => {
    const response = await search('type:symbol MakeServer repo:acme/sym');
    assert.deepEqual(symbols(response), ['cmd/main.go MakeServer FUNCTION 7 -']);
    assert.equal(response.stats.docsScanned, 1);
    assert.equal(response.stats.candidates, 1);
  });

  it('parses an unindexed revision on demand', async () => {
    assert.deepEqual(symbols(await search('type:symbol repo:acme/sym@v1 NewServer')), ['cmd/main.go NewServer FUNCTION 7 -']);
    assert.deepEqual(symbols(await search('type:symbol repo:acme/sym@v1 MakeServer')), []);
  });
});

describe('select:symbol on content searches', () => {
  it('turns matches into the definitions whose names they hit; files without any are dropped', async () => {
    const response = await search('repo:acme/sym Server select:symbol');
    assert.deepEqual(symbols(response).sort(), [
      'cmd/main.go MakeServer FUNCTION 7 -',
      'cmd/main.go Server CLASS 3 -',
      'lib/server.py ServerConfig CLASS 1 -',
      'lib/server.py server_main FUNCTION 6 -',
      'src/server.ts Server CLASS 1 -',
      'src/server.ts serverHelper FUNCTION 10 -',
      'src/server.ts startServer FUNCTION 7 -',
    ]);
    assert.equal(response.matchCount, 7);
  });

  it('select:symbol.<kind> filters the definitions hit', async () => {
    assert.deepEqual(symbols(await search('repo:acme/sym Server select:symbol.class')).sort(), [
      'cmd/main.go Server CLASS 3 -', 'lib/server.py ServerConfig CLASS 1 -', 'src/server.ts Server CLASS 1 -',
    ]);
  });
});

describe('ranking', () => {
  it('a file defining the term outranks a shorter one that only mentions it more often', async () => {
    const response = await search('repo:acme/sym Widget');
    assert.deepEqual(response.matches.map((m) => (m as FileMatch).path), ['defs/deeply/nested/ui/implementation.ts', 'm.ts']);
  });
});
