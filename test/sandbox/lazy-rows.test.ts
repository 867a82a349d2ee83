/**
 * Search rows cross packed and are built when the script first touches them: every way a script
 * can look at a row (fields, pairs and next in order, raw access, metatables, assignment, sorting,
 * json, format_table, errors) answers exactly what the same rows built eagerly answer. The eager
 * copy is json.decode of the same rows, which builds plain tables.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { HostCall } from '../../src/sandbox/script-runner.js';
import { createRunnerFixture } from './runner-fixture.js';

const fixture = createRunnerFixture();
after(() => fixture.runner.close());

const ROWS = [
  { repo: 'github.com/a/b', path: 'src/x.ts', language: 'TypeScript', line: 12, column: 3, text: 'const x = parse(y);' },
  { repo: 'github.com/a/b', path: 'src/x.ts', language: 'TypeScript', line: 7, column: 1, text: 'function parse(s) {' },
  { repo: 'github.com/a/c', path: 'lib/é.go', line: 2147483648, column: 1.5, text: 'func Parse() {}', exported: true, done: false },
  { repo: 'github.com/a/b', path: 'README.md', rank: 3, missing: null },
];
const rowsJson = JSON.stringify(Object.assign([...ROWS].map((row) => Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null))), {}));

/** Answers every search with ROWS (marked truncated), a fresh copy each call. */
const rowsCall: HostCall = async () => Object.assign(ROWS.map((row) => ({ ...row })), { truncated: true });

/** The script's `observe(fresh)` output for lazy rows and for eagerly built ones; `fresh()` returns an untouched list each call. */
async function bothWays(observe: string): Promise<{ lazy: string; eager: string }> {
  const run = async (fresh: string) => {
    const outcome = await fixture.run(`local function fresh() ${fresh} end\n${observe}`, { call: rowsCall });
    assert.equal(outcome.error, null, outcome.error ?? '');
    return outcome.output;
  };
  const lazy = await run('return search.keyword("q")');
  const eager = await run(`local t = json.decode(${JSON.stringify(rowsJson)}) t.truncated = true return t`);
  return { lazy, eager };
}

async function sameBothWays(observe: string, expected?: string): Promise<void> {
  const { lazy, eager } = await bothWays(observe);
  assert.equal(lazy, eager);
  if (expected !== undefined) assert.equal(lazy, expected);
}

test('fields, the list\'s length, ipairs and the truncated mark read as the host\'s values', async () => {
  await sameBothWays(`local r = fresh()
    print(#r, r.truncated, r[1].repo, r[1].path, r[1].line, math.type(r[1].line), r[3].path, r[3].line, r[3].column, r[3].exported, r[3].done, r[4].missing, r[4].rank, #r[1])
    local n = 0 for i, row in ipairs(r) do n = n + i end print(n)`,
  '4\ttrue\tgithub.com/a/b\tsrc/x.ts\t12\tinteger\tlib/é.go\t2147483648.0\t1.5\ttrue\tfalse\tnil\t3\t0\n10\n');
});

test('pairs and next on an untouched row see every field, in the host\'s order', async () => {
  await sameBothWays(`local r = fresh()
    local keys = {} for k, v in pairs(r[1]) do keys[#keys + 1] = k .. "=" .. tostring(v) end print(table.concat(keys, " "))
    print(next(fresh()[2]))
    local k, v = next(fresh()[3], "path") print(k, v)
    local all = {} for k in pairs(fresh()) do all[#all + 1] = tostring(k) end print(table.concat(all, " "))`);
});

test('raw access, metatables and assignment on untouched rows', async () => {
  await sameBothWays(`
    print(rawget(fresh()[1], "path"), rawget(fresh()[1], "nope"), getmetatable(fresh()[1]), rawlen(fresh()[1]))
    local r = fresh()[1] rawset(r, "path", "changed") print(r.path, r.repo)
    local s = fresh()[2] s.extra = 1 s.line = 99 local keys = {} for k, v in pairs(s) do keys[#keys + 1] = k .. "=" .. tostring(v) end print(table.concat(keys, " "))
    local m = setmetatable(fresh()[1], {__index = function(_, k) return "default " .. k end}) print(m.path, m.other)
    local t = fresh()[1] table.insert(t, "first") print(#t, t[1], t.path)
    local u = fresh()[2] print(u[1], u[1.5], select("#", table.unpack(u)))
    print(pcall(function() fresh()[1][nil] = 1 end))
    print(pcall(function() fresh()[1][0/0] = 1 end))
    local w = fresh()[1] print(rawequal(w, w), type(w), tostring(w) == tostring(w), pcall(function() return w .. "" end))`);
});

test('sorting, json.encode, format_table and a returned list see the rows whole', async () => {
  await sameBothWays(`
    local r = fresh() table.sort(r, function(a, b) return (a.line or 0) > (b.line or 0) end)
    local paths = {} for _, row in ipairs(r) do paths[#paths + 1] = row.path end print(table.concat(paths, ","))
    print(json.encode(fresh()))
    print(json.encode(fresh()[3]))
    local listed = fresh() listed.truncated = nil print(text.format_table(listed, {"path", "line"}))
    local counts = {} for _, row in ipairs(fresh()) do counts[row.repo] = (counts[row.repo] or 0) + 1 end print(counts["github.com/a/b"], counts["github.com/a/c"])
    local co = coroutine.wrap(function() local r = fresh() coroutine.yield(r[1].text) end) print(co())`);
  const returned = await fixture.run('return search.keyword("q")', { call: rowsCall });
  const byKey = Object.fromEntries((JSON.parse(rowsJson) as unknown[]).map((row, i) => [String(i + 1), row]));
  assert.deepEqual(JSON.parse(returned.output), { ...byKey, truncated: true });
});

test('a row passed back to the host crosses as its fields', async () => {
  const seen: unknown[] = [];
  const call: HostCall = async (name, args) => {
    if (name === 'search.keyword') return rowsCall(name, args, new AbortController().signal);
    seen.push(args);
    return null;
  };
  const outcome = await fixture.run('local r = search.keyword("q") source.read(r[1].repo, r[2]) source.list({r[3], r[4]})', { call });
  assert.equal(outcome.error, null);
  const [, second, third, fourth] = JSON.parse(rowsJson) as unknown[];
  assert.deepEqual(seen, [['github.com/a/b', second], [[third, fourth]]]);
});

test('lists that are not flat rows cross as they are', async () => {
  const call: HostCall = async () => [{ repo: 'r', files: ['a', 'b'] }, { repo: 's', files: [] }];
  const outcome = await fixture.run('local r = search.commits{} print(#r, r[1].files[2], getmetatable(r[1]), next(r[2].files))', { call });
  assert.equal(outcome.output, '2\tb\tnil\tnil\n');
});
