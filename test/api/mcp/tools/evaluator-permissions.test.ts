/**
 * Permissions through every module an evaluator script can call: a repository the caller may not
 * read answers exactly like one that does not exist, and never appears in unscoped results. Each
 * check also runs for a caller who may read it, so it fails if the data were not there at all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import type { ToolAnswer } from '../../../../src/api/mcp/tool.js';
import { evaluatorTool } from '../../../../src/api/mcp/tools/evaluator.js';
import { mcpServices } from '../../../../src/server/mcp.js';
import { callTool } from '../tool-context.js';
import { APP, buildEvaluatorWorld, canRead, SECRET, type EvaluatorWorld } from './evaluator-fixture.js';

const NOPE = 'github.com/acme/nope';

let world: EvaluatorWorld;
let services: McpServices;

before(async () => {
  world = await buildEvaluatorWorld();
  services = mcpServices(world.engine.engine);
});

after(() => world.close());

const asCaller = (script: string): Promise<ToolAnswer> => callTool(services, evaluatorTool, { script }, { canRead });
const asReader = (script: string): Promise<ToolAnswer> => callTool(services, evaluatorTool, { script }, { canRead: () => true });

const blind = (answer: ToolAnswer, repo: string): ToolAnswer => ({ ...answer, text: answer.text.split(repo).join('<repo>') });
const anchored = (repo: string): string => `^${repo.replace(/\./g, '\\\\.')}$`;

/** Scripts naming one repository: `R` stands for it. */
const NAMED: Readonly<Record<string, { readonly script: string; readonly reveals: RegExp }>> = {
  'search.keyword': { script: 'for _, h in ipairs(search.keyword("classified repo:ANCHOR")) do print(h.repo, h.path, h.text) end', reveals: /classified/ },
  'search.nls': { script: 'for _, h in ipairs(search.nls("repo:ANCHOR classified request")) do print(h.repo, h.path, h.text) end', reveals: /classified/ },
  'search.symbols': { script: 'for _, s in ipairs(search.symbols("secretUse repo:ANCHOR")) do print(s.repo, s.name) end', reveals: /secretUse/ },
  'search.commits': { script: 'for _, c in ipairs(search.commits{repos = {"R"}}) do print(c.repo, c.subject) end', reveals: /Classified import/ },
  'search.diffs': { script: 'for _, d in ipairs(search.diffs{repos = {"R"}, pattern = "classified"}) do print(d.repo, d.text) end', reveals: /classified/ },
  'source.read': { script: 'print(source.read("R", "web/login.ts"))', reveals: /classified/ },
  'source.list': { script: 'for _, e in ipairs(source.list("R", {recursive = true})) do print(e.path) end', reveals: /calc\/defs\.go/ },
  'nav.definition': { script: 'print(json.encode(nav.definition{repo = "R", path = "calc/defs.go", symbol = "f12"}))', reveals: /"repo":"github\.com\/acme\/secret"/ },
  'nav.references': { script: 'for _, r in ipairs(nav.references{repo = "R", path = "calc/defs.go", symbol = "f12"}) do print(r.repo, r.line) end', reveals: /github\.com\/acme\/secret\t8/ },
};

const named = (script: string, repo: string): string => script.replace(/ANCHOR/g, anchored(repo)).replace(/"R"/g, `"${repo}"`);

describe('a repository the caller may not read answers like a missing one', () => {
  for (const [module, { script, reveals }] of Object.entries(NAMED)) {
    it(`through ${module}`, async () => {
      const [hidden, missing, read] = await Promise.all([asCaller(named(script, SECRET)), asCaller(named(script, NOPE)), asReader(named(script, SECRET))]);
      assert.deepEqual(blind(hidden, SECRET), blind(missing, NOPE));
      assert.doesNotMatch(hidden.text, reveals);
      assert.match(read.text, reveals, 'a caller who may read it sees its data');
    });
  }
});

describe('unscoped calls never return a repository the caller may not read', () => {
  const unscoped: Readonly<Record<string, string>> = {
    'search.keyword': 'for _, h in ipairs(search.keyword("classified count:all")) do print(h.repo) end',
    'search.nls': 'for _, h in ipairs(search.nls("classified handle request")) do print(h.repo) end',
    'search.symbols': 'for _, s in ipairs(search.symbols("f12 count:all")) do print(s.repo) end',
    'search.commits': `for _, c in ipairs(search.commits{repos = {"${APP}", "${SECRET}"}, messageTerms = {"import"}}) do print(c.repo) end`,
    'search.diffs': `for _, d in ipairs(search.diffs{repos = {"${APP}", "${SECRET}"}, pattern = "return"}) do print(d.repo) end`,
  };
  for (const [module, script] of Object.entries(unscoped)) {
    it(`through ${module}`, async () => {
      const [seen, read] = await Promise.all([asCaller(script), asReader(script)]);
      assert.doesNotMatch(seen.text, /acme\/secret\n/);
      assert.match(read.text, /github\.com\/acme\/secret\n/, 'a caller who may read it sees it');
    });
  }

  it('through nav.references and nav.definition from a readable repository', async () => {
    const script = `local d = nav.definition{repo = "${APP}", path = "calc/use_b.go", symbol = "f12"} print(d.repo, d.path)
      for _, r in ipairs(nav.references{repo = "${APP}", path = "calc/defs.go", symbol = "f12", limit = 1000}) do print(r.repo) end`;
    const answer = await asCaller(script);
    assert.equal(answer.isError, undefined, answer.text);
    assert.doesNotMatch(answer.text, /secret/);
    assert.match(answer.text, /^github\.com\/acme\/app\tcalc\/defs\.go\n(github\.com\/acme\/app\n){12}\n/);
  });
});

describe('the caller\'s permission over a run', () => {
  it('is asked once per repository, however many searches the script makes, and still hides what it hides', async () => {
    const asked = new Map<string, number>();
    const counting = (repo: string): boolean => {
      asked.set(repo, (asked.get(repo) ?? 0) + 1);
      return canRead(repo);
    };
    const answer = await callTool(services, evaluatorTool, { script: 'local seen = {} for i = 1, 20 do for _, h in ipairs(search.keyword("classified count:all")) do seen[h.repo] = true end end for r in pairs(seen) do print(r) end' }, { canRead: counting });
    assert.equal(answer.isError, undefined, answer.text);
    assert.doesNotMatch(answer.text, /acme\/secret/);
    assert.ok(asked.has(SECRET), 'the hidden repository was asked about');
    for (const [repo, times] of asked) assert.equal(times, 1, `${repo} was asked ${times} times`);
  });
});
