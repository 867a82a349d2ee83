/**
 * The evaluator tool over real repositories: real tasks (per-language file counts, the most-called
 * functions of a package, commits per author over a path, files that define one name but never
 * call another) checked against git and the files themselves; the answer budget, generated files,
 * script errors, limits from the site configuration, and a runaway script beside a search.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { evaluatorTool } from '../../../../src/api/mcp/tools/evaluator.js';
import { keywordSearchTool } from '../../../../src/api/mcp/tools/keyword-search.js';
import { languageOfPath } from '../../../../src/query/languages.js';
import { mcpServices } from '../../../../src/server/mcp.js';
import { git } from '../../../git/fixtures.js';
import { callTool } from '../tool-context.js';
import { APP, AUTHORS, buildEvaluatorWorld, canRead, FUNCTIONS, gitLog, type EvaluatorWorld } from './evaluator-fixture.js';

let world: EvaluatorWorld;
let services: McpServices;

before(async () => {
  world = await buildEvaluatorWorld();
  services = mcpServices(world.engine.engine);
});

after(() => world.close());

const evaluate = (script: string, maxAnswerTokens = 8000) => callTool(services, evaluatorTool, { script }, { canRead, maxAnswerTokens });

/** The printed lines, without the closing notes. */
function printed(text: string): string[] {
  return text.slice(0, text.lastIndexOf('\n\n')).split('\n');
}

test('per-language file counts of a repository, as git lists its files', async () => {
  const answer = await evaluate(`
    local counts = {}
    for _, entry in ipairs(source.list("${APP}", {recursive = true})) do
      if not entry.dir then
        local language = entry.language or "other"
        counts[language] = (counts[language] or 0) + 1
      end
    end
    local rows = {}
    for language, files in pairs(counts) do rows[#rows + 1] = {language = language, files = files} end
    table.sort(rows, function(a, b) return a.files > b.files or (a.files == b.files and a.language < b.language) end)
    for _, row in ipairs(rows) do print(row.language, row.files) end`);
  assert.equal(answer.isError, undefined, answer.text);
  const expected = new Map<string, number>();
  for (const path of git(world.appDir, 'ls-files').split('\n')) {
    const language = languageOfPath(path) ?? 'other';
    expected.set(language, (expected.get(language) ?? 0) + 1);
  }
  const lines = [...expected].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([language, files]) => `${language}\t${files}`);
  assert.deepEqual(printed(answer.text), lines);
  assert.match(answer.text, /\n\(0 searches, 1 source read\)\n$/);
});

test('the ten most-called functions of a package, by the references navigation resolves', async () => {
  const answer = await evaluate(`
    local calls = {}
    for _, s in ipairs(search.symbols("repo:^github\\\\.com/acme/app$ file:^calc/defs\\\\.go$ type:symbol")) do
      if s.kind == "function" then
        local refs = nav.references{repo = s.repo, path = s.path, symbol = s.name, line = s.line}
        calls[#calls + 1] = {name = s.name, calls = refs.total}
      end
    end
    table.sort(calls, function(a, b) return a.calls > b.calls end)
    local top = {}
    for i = 1, 10 do top[i] = calls[i] end
    print(text.format_table(top, {"name", "calls"}))`);
  assert.equal(answer.isError, undefined, answer.text);
  const rows = Array.from({ length: 10 }, (_, i) => FUNCTIONS - i).map((k) => `| f${k}${k < 10 ? ' ' : ''}  | ${String(k).padStart(5)} |`);
  assert.deepEqual(printed(answer.text).slice(0, 12), ['| name | calls |', '|------|------:|', ...rows]);
  assert.match(answer.text, /\(13 searches, 0 source reads\)\n$/);
});

test('commits per author over a path agree with git log', async () => {
  const answer = await evaluate(`
    local by = {}
    local commits = search.commits{repos = {"${APP}"}, files = {"calc/"}, count = 1000}
    for _, c in ipairs(commits) do by[c.author] = (by[c.author] or 0) + 1 end
    local names = {}
    for name in pairs(by) do names[#names + 1] = name end
    table.sort(names)
    for _, name in ipairs(names) do print(name, by[name]) end
    print("truncated", commits.truncated)`);
  assert.equal(answer.isError, undefined, answer.text);
  const expected = new Map<string, number>();
  for (const name of gitLog(world.appDir, '--format=%an', '--', 'calc/')) expected.set(name, (expected.get(name) ?? 0) + 1);
  assert.equal(expected.size, AUTHORS.length);
  assert.deepEqual(printed(answer.text), [...[...expected].sort().map(([name, n]) => `${name}\t${n}`), 'truncated\tnil']);
});

test('files that define handleRequest but never call audit, as the files themselves say', async () => {
  const answer = await evaluate(`
    local defines, calls = {}, {}
    for _, s in ipairs(search.symbols("handleRequest repo:^github\\\\.com/acme/app$")) do
      if s.name == "handleRequest" then defines[s.path] = true end
    end
    for _, h in ipairs(search.keyword("audit( repo:^github\\\\.com/acme/app$")) do calls[h.path] = true end
    local paths = {}
    for path in pairs(defines) do if not calls[path] then paths[#paths + 1] = path end end
    table.sort(paths)
    return table.concat(paths, " ")`);
  assert.equal(answer.isError, undefined, answer.text);
  const files = git(world.appDir, 'ls-files', 'web').split('\n');
  const content = (path: string): string => readFileSync(join(world.appDir, path), 'utf8');
  const expected = files.filter((path) => content(path).includes('function handleRequest') && !content(path).includes('audit(')).sort();
  assert.deepEqual(expected, ['web/health.ts', 'web/logout.ts']);
  assert.deepEqual(printed(answer.text), [expected.join(' ')]);
});

test('printed output past the answer budget is cut at a line, and the answer says how much', async () => {
  const answer = await evaluate('for i = 1, 500 do print(("line %03d "):format(i) .. ("x"):rep(40)) end', 500);
  assert.ok(answer.text.length <= 500 * 4, `${answer.text.length} characters`);
  const lines = printed(answer.text);
  assert.match(lines[lines.length - 1]!, /^line \d{3} x{40}$/);
  assert.match(answer.text, new RegExp(`\\(output cut to fit the answer budget of 500 tokens: showing ${lines.length} lines of 500; print less, or write the full result with output\\.file\\)`));
});

test('generated files are attached as embedded resources, text or base64', async () => {
  const answer = await evaluate('output.file("counts.csv", "lang,files\\nGo,3\\n") output.file("raw.bin", "\\255\\0\\1") print("written")');
  assert.equal(answer.isError, undefined);
  assert.match(answer.text, /^written\n\nAttached: counts\.csv \(text\/csv, 16 bytes\), raw\.bin \(text\/plain, 3 bytes\)\n/);
  assert.deepEqual(answer.resources, [
    { uri: 'evaluator://output/counts.csv', mimeType: 'text/csv', text: 'lang,files\nGo,3\n' },
    { uri: 'evaluator://output/raw.bin', mimeType: 'text/plain', blob: Buffer.from([255, 0, 1]).toString('base64') },
  ]);
});

test('a script error is a tool error with the Lua message and line, after what was printed', async () => {
  const answer = await evaluate('print("before")\nlocal hits = search.keyword("f1(")\nreturn hits[1].nope.deeper');
  assert.equal(answer.isError, true);
  assert.equal(answer.text, "before\n\nError: script:3: attempt to index a nil value (field 'nope')\n(1 search, 0 source reads)\n");
  const empty = await evaluate('   ');
  assert.equal(empty.isError, true);
  assert.match(empty.text, /^The script is empty/);
});

test('the site configuration\'s limits bound a run, and the answer names the setting', async () => {
  world.setLimits({ maxSearchesPerExecution: 2 });
  try {
    const answer = await evaluate('for i = 1, 5 do print(#search.keyword("f" .. i .. "(")) end');
    assert.equal(answer.isError, undefined);
    assert.equal(answer.text, '2\n3\n\nStopped: search.keyword would be search 3: a run may make 2 searches (deepSearch.evaluator.maxSearchesPerExecution). The output above is what the script printed until then.\n(2 searches, 0 source reads)\n');
  } finally {
    world.setLimits({});
  }
});

test('a runaway script stops at its deadline without slowing a search, and the next script runs', async () => {
  world.setLimits({ maxExecutionSeconds: 3 });
  try {
    const runaway = evaluate('print("spinning") while true do end');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    const search = await callTool(services, keywordSearchTool, { query: 'f12(' }, { canRead });
    assert.match(search.text, /calc\/use_b\.go/);
    assert.ok(performance.now() - started < 1500, `the search took ${performance.now() - started} ms beside the runaway script`);
    const stopped = await runaway;
    assert.match(stopped.text, /^spinning\n\nStopped: the script ran out of time: a run may take 3 s \(deepSearch\.evaluator\.maxExecutionSeconds\)\. The output above/);
  } finally {
    world.setLimits({});
  }
  assert.equal((await evaluate('return #search.keyword("f3(")')).text, '4\n\n(1 search, 0 source reads)\n');
});

test('the description\'s example runs as written and prints the sorted table; the tools/list entry stays small', async () => {
  const example = evaluatorTool.description.slice(evaluatorTool.description.indexOf('local n, rows'));
  const answer = await evaluate(example.replace('file:^src/', 'file:^calc/'));
  assert.equal(answer.isError, undefined, answer.text);
  const lines = printed(answer.text);
  assert.deepEqual(lines.slice(0, 3), ['| path          | functions |', '|---------------|----------:|', '| calc/defs.go  |        12 |']);
  // The two files of one function each tie: table.sort may put either first.
  assert.deepEqual(lines.slice(3).sort(), ['| calc/use_a.go |         1 |', '| calc/use_b.go |         1 |']);
  const entry = JSON.stringify({ name: evaluatorTool.name, description: evaluatorTool.description, inputSchema: evaluatorTool.inputSchema, annotations: { readOnlyHint: true, openWorldHint: false } });
  assert.ok(entry.length <= 450 * 4, `${entry.length} characters`);
});
