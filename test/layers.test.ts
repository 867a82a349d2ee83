/**
 * The import rules of ARCHITECTURE.md, checked on the source: each third-party runtime package
 * has one home folder, the native addon has one importer, imports run down the layer table below,
 * and no src/ modules import one another in a circle.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importCircles, importGraph, importSpecifiers, layerViolations, readSources, tableProblems, type LayerTable } from './helpers/import-graph.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const HOMES: Record<string, readonly string[]> = {
  lmdb: ['src/index/', 'src/store/'],
  pg: ['src/store/'],
  piscina: ['src/pool/'],
  'uWebSockets.js': ['src/http/'],
  graphql: ['src/api/graphql/'],
  'graphql-jit': ['src/api/graphql/'],
  '@modelcontextprotocol/sdk': ['src/api/mcp/'],
  fengari: ['src/sandbox/'],
};

/** model/ (shared types and encodings, importing nothing) and errors.ts (the one error catalog) serve every layer. */
const SHARED = ['model', 'errors.ts'];

/**
 * Which folder of src/ may import which, top to bottom; a folder may always import its own files.
 * The data path keeps its order (http, auth, search, pool, shard, index, matcher) but for one
 * swap: a request passes http/ and auth/ before a front door, yet the doors are plugged into the
 * edge by server/ and import the edge's routes and responses and auth's Principal, never the
 * reverse, so api/* sit above http/ and auth/. The side folders sit among them, below every
 * folder that imports them.
 */
const LAYERS: LayerTable = [
  // The `quarry` command, over the composition root; --json prints the stream API's match shapes;
  // `oauth-apps` makes applications through auth/oauth/ (its checks of redirect URIs and scopes).
  ['cli', ['main.ts', 'services.ts', 'api/stream', 'cluster', 'indexer', 'repos', 'auth', 'store', 'config.ts', ...SHARED]],
  // The composition root: the services, built once, handed to each front door that server/ wires.
  ['main.ts', ['server', 'services.ts', 'api/deepsearch', 'api/graphql', 'api/oauth', 'api/pages', 'api/stream', 'http', 'auth', 'repos', 'indexer', 'search', 'pool', 'history', 'index', 'regex', 'store', 'config.ts', ...SHARED]],
  // server/cluster.ts wires a node's role: the fan-out (cluster/) on front ends, the internal search (api/cluster) on search nodes.
  ['server', ['services.ts', 'api/cluster', 'cluster', 'api/graphql', 'api/mcp', 'deepsearch', 'api/pages', 'http', 'auth', 'repos', 'indexer', 'search', 'pool', 'history', 'symbols', 'index', 'git', 'store', 'config.ts', ...SHARED]],
  // Every service, built once from the configuration, for the server and the one-shot commands.
  ['services.ts', ['repos', 'indexer', 'search', 'sandbox', 'pool', 'history', 'symbols', 'index', 'store', 'config.ts', ...SHARED]],
  // Deep search's REST API and pages, on the page kit; its list pages with the MCP tools' cursor (page-cursor.ts).
  ['api/deepsearch', ['api/mcp', 'api/pages', 'http', 'auth', 'deepsearch', ...SHARED]],
  // The front doors reach the engine through search/, history/ and symbols/ services, never index/ or store/.
  ['api/graphql', ['http', 'auth', 'search', 'history', 'query', ...SHARED]],
  // The evaluator tool serves its scripts' calls to search/, history/ and symbols/ through sandbox/'s runner.
  // The deep search tools run the research (deepsearch/) over the tools' own functions, which they hand it.
  // Its protocol threads take a name as the pool's threads do (pool/thread-name.ts).
  ['api/mcp', ['http', 'auth', 'deepsearch', 'search', 'sandbox', 'history', 'symbols', 'git', 'query', 'pool', ...SHARED]],
  // The authorization server's endpoints and consent pages, on the page kit; its logic lives in auth/oauth/.
  ['api/oauth', ['http', 'auth', 'api/pages', ...SHARED]],
  // The web app (api/pages/web/) reads search, repositories, history and symbols through the services the other doors read.
  // The search page runs its search as the stream API does (api/stream's runStream), its first results in the HTML.
  ['api/pages', ['api/stream', 'http', 'auth', 'search', 'history', 'symbols', 'query', ...SHARED]],
  ['api/stream', ['http', 'auth', 'search', 'query', ...SHARED]],
  // A search node's internal search for front ends, behind the cluster secret (auth/cluster-secret.ts).
  ['api/cluster', ['cluster', 'http', 'auth', 'search', ...SHARED]],
  // The front end's fan-out to search nodes: ownership, the node call, the merge; the search seam it stands in for.
  ['cluster', ['search', 'query', ...SHARED]],
  // The research agent: brains, its ledger, conversations through the store seam model/deepsearch.ts declares.
  ['deepsearch', [...SHARED]],
  // A request's abort signal carries its caller to the pool's fair queue (pool/work-owner.ts).
  ['http', ['pool', ...SHARED]],
  ['auth', ['store', ...SHARED]],
  // The registry adapts mirrors and store records to the seams search/ (RevisionSource) and history/ (HistoryRepoSource) declare.
  ['repos', ['search', 'history', 'index', 'git', 'store', ...SHARED]],
  ['indexer', ['pool', 'index', 'git', ...SHARED]],
  ['search', ['pool', 'shard', 'history', 'index', 'regex', 'matcher', 'query', ...SHARED]],
  // Lua scripts run in the sandbox pool's workers (fengari's one home); the host side serves their calls.
  ['sandbox', ['pool', ...SHARED]],
  // Workers run shard searches, index batches, symbol parses and history's line and text scans.
  ['pool', ['shard', 'history', 'symbols', 'index', 'matcher', ...SHARED]],
  ['shard', ['symbols', 'index', 'matcher', 'query', ...SHARED]],
  // history/ declares what it needs of the pool (DiffLineRunner, TextMatchRunner); the commit index lives in index/commits/.
  ['history', ['index', 'regex', 'matcher', 'git', ...SHARED]],
  // symbols/batch.ts fills the symbol columns whose layout index/format.ts, the one description of the format, defines.
  ['symbols', ['index', 'query', ...SHARED]],
  ['index', [...SHARED]],
  // The planner emits the matcher's PatternSpec.
  ['regex', ['matcher', ...SHARED]],
  ['matcher', [...SHARED]],
  ['git', [...SHARED]],
  ['store', [...SHARED]],
  ['query', [...SHARED]],
  ['config.ts', ['errors.ts']],
  ['model', []],
  ['errors.ts', []],
];

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const files = readSources(ROOT, 'src');
const graph = importGraph(files);

test('the source tree was found', () => {
  assert.ok(files.length > 20);
});

test('every third-party package is imported only from its home folder', () => {
  const violations: string[] = [];
  for (const file of files) {
    for (const spec of file.specifiers) {
      if (spec.startsWith('.') || spec.startsWith('node:')) continue;
      const pkg = packageOf(spec);
      const homes = HOMES[pkg] ?? (pkg.startsWith('tree-sitter') ? ['src/symbols/'] : null);
      if (!homes) violations.push(`${file.path}: ${spec} has no home folder in ARCHITECTURE.md`);
      else if (!homes.some((h) => file.path.startsWith(h))) violations.push(`${file.path}: ${spec} belongs in ${homes.join(' or ')}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('only src/matcher/hyperscan.ts loads the native addon', () => {
  const importers = files.filter((f) => f.specifiers.some((s) => s.includes('native/hyperscan'))).map((f) => f.path);
  assert.deepEqual(importers, ['src/matcher/hyperscan.ts']);
});

test('no module above the pool imports a concrete store, matcher or piscina', () => {
  const upper = files.filter((f) => /^src\/(search|query|regex|cli)\//.test(f.path));
  for (const f of upper) {
    const bad = f.specifiers.filter((s) => /index\/lmdb\/|matcher\/hyperscan|piscina/.test(s));
    assert.deepEqual(bad, [], f.path);
  }
});

test('the layer table runs downward', () => {
  assert.deepEqual(tableProblems(LAYERS), []);
});

test('every import in src/ is allowed by the layer table', () => {
  assert.deepEqual(layerViolations(graph, LAYERS), []);
});

// Type-only imports count: a circle of types is still a circle to read, and the cure is the same
// (the shared types move to a leaf file both sides import).
test('no src/ modules import one another in a circle, type-only imports included', () => {
  assert.deepEqual(importCircles(graph), []);
});

test('the import reader counts type-only, re-export and dynamic imports, and not comments', () => {
  const text = [
    "import type { A } from './a.js';",
    "export { b } from './b.js';",
    "const c = await import('./c.js');",
    "// import { d } from './d.js';",
    "const e = 'import { e } from \"./e.js\"';",
  ].join('\n');
  assert.deepEqual(importSpecifiers(text), ['./a.js', './b.js', './c.js']);
});

test('the checker reports a made-up upward import and a made-up circle', () => {
  const upward = new Map([
    ['src/shard/verify.ts', ['src/search/plan.ts', 'src/index/format.ts']],
    ['src/search/plan.ts', []],
    ['src/index/format.ts', []],
  ]);
  assert.deepEqual(layerViolations(upward, LAYERS), ['src/shard/verify.ts → src/search/plan.ts (shard may not import search)']);
  assert.deepEqual(importCircles(upward), []);

  const circle = new Map([
    ['src/store/users.ts', ['src/store/tokens.ts']],
    ['src/store/tokens.ts', ['src/store/records.ts', 'src/store/users.ts']],
    ['src/store/records.ts', []],
  ]);
  assert.deepEqual(layerViolations(circle, LAYERS), []);
  assert.deepEqual(importCircles(circle), ['src/store/tokens.ts → src/store/users.ts → src/store/tokens.ts']);
});

test('the checker reports a folder missing from the table and a row that allows an upward import', () => {
  assert.deepEqual(layerViolations(new Map([['src/plugins/lua.ts', []]]), LAYERS), ['src/plugins/lua.ts: plugins has no row in the layer table']);
  assert.deepEqual(tableProblems([['search', ['shard']], ['shard', ['search']]]), ['shard may import search, which is not a layer below it']);
});

test('only the composition root picks a pool implementation: everyone else sees the seam (pool/pool.ts)', () => {
  const implementation = /\/pool\/(piscina-pool|engine-pool|sandbox-pool|in-thread-pool|worker|worker-entry)\.js$/;
  const importers = files.filter((f) => !f.path.startsWith('src/pool/') && f.specifiers.some((s) => implementation.test(s))).map((f) => f.path);
  assert.deepEqual(importers, ['src/services.ts']);
});
