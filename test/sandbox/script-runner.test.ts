/**
 * The evaluator's engine on real sandbox workers: calls to the host and their values both ways,
 * the counted limits, generated files, json and text, cancellation, one caller's runaway script
 * beside another's, and the pool rebuilt when the memory cap changes.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { chargeSignalTo } from '../../src/pool/work-owner.js';
import type { HostCall } from '../../src/sandbox/script-runner.js';
import { createRunnerFixture, echoCall, TEST_LIMITS } from './runner-fixture.js';

const fixture = createRunnerFixture();
after(() => fixture.runner.close());

test('a call hands its arguments to the host as plain data and returns the host\'s value as Lua tables', async () => {
  const outcome = await fixture.run(`
    local r = search.keyword("parse lang:go", {limit = 5, repos = {"a", "b"}, exact = true})
    print(r.name, r.args[1], r.args[2].limit, r.args[2].repos[2], r.args[2].exact, #r.args)
    local e = source.list("x", {})
    print(e.args[1], type(e.args[2]), next(e.args[2]))`);
  assert.equal(outcome.error, null);
  assert.equal(outcome.output, 'search.keyword\tparse lang:go\t5\tb\ttrue\t2\nx\ttable\tnil\n');
  assert.deepEqual([outcome.searches, outcome.reads], [1, 1]);
});

test('a host error is raised at the script\'s line with the function\'s name (none when pcall calls it directly, as in Lua), and pcall can catch it', async () => {
  const call: HostCall = async (name) => {
    throw new Error(`Repository not found: nope (from ${name}).`);
  };
  const raised = await fixture.run('local x = 1\nsource.read("nope", "a.go")', { call });
  assert.equal(raised.error, 'script:2: source.read: Repository not found: nope (from source.read).');
  const caught = await fixture.run('local ok, err = pcall(search.nls, "q") print(ok, err) return "after"', { call });
  assert.equal(caught.output, 'false\tsearch.nls: Repository not found: nope (from search.nls).\nafter\n');
});

test('functions and self-containing tables cannot be passed to the host', async () => {
  const fn = await fixture.run('search.keyword("q", {f = print})');
  assert.equal(fn.error, 'script:1: search.keyword: argument 2 holds a function, which cannot be passed; pass strings, numbers, booleans and tables of them');
  const cyclic = await fixture.run('local t = {} t.t = t search.keyword(t)');
  assert.match(cyclic.error ?? '', /^script:1: search\.keyword: argument 1 nests tables more than 64 deep/);
  assert.equal(cyclic.searches, 0);
});

test('the 101st search stops the run, pcall or not, with what was printed before', async () => {
  const outcome = await fixture.run('for i = 1, 200 do pcall(search.keyword, "q" .. i) if i % 50 == 0 then print(i) end end');
  assert.equal(outcome.output, '50\n100\n');
  assert.equal(outcome.searches, 100);
  assert.deepEqual(outcome.stop, { limit: 'maxSearchesPerExecution', message: 'search.keyword would be search 101: a run may make 100 searches (deepSearch.evaluator.maxSearchesPerExecution)' });
});

test('source reads have their own limit, and navigation counts as searches', async () => {
  fixture.limits = { ...TEST_LIMITS, maxSourceReadsPerExecution: 3, maxSearchesPerExecution: 2 };
  try {
    const reads = await fixture.run('for i = 1, 5 do source.read("r", "f" .. i) end');
    assert.equal(reads.stop?.limit, 'maxSourceReadsPerExecution');
    assert.equal(reads.reads, 3);
    const nav = await fixture.run('nav.definition{repo = "r"} nav.references{repo = "r"} search.diffs{pattern = "x"}');
    assert.equal(nav.stop?.limit, 'maxSearchesPerExecution');
    assert.equal(nav.searches, 2);
  } finally {
    fixture.limits = TEST_LIMITS;
  }
});

test('generated files arrive with their type; one past the size limit stops the run', async () => {
  const outcome = await fixture.run('output.file("counts.csv", "a,1\\nb,2\\n") output.file("data.json", json.encode({1, 2})) output.file("notes", "x", "text/x-notes") output.file("counts.csv", "a,3\\n")');
  assert.equal(outcome.error, null);
  assert.deepEqual(outcome.files.map((f) => [f.name, f.mimeType, Buffer.from(f.data).toString()]).sort(), [
    ['counts.csv', 'text/csv', 'a,3\n'], ['data.json', 'application/json', '[1,2]'], ['notes', 'text/x-notes', 'x'],
  ]);
  fixture.limits = { ...TEST_LIMITS, maxGeneratedFileSizeBytes: 1000 };
  try {
    const big = await fixture.run('output.file("a.txt", ("x"):rep(600)) output.file("b.txt", ("x"):rep(600)) print("not reached")');
    assert.deepEqual(big.files.map((f) => f.name), ['a.txt']);
    assert.equal(big.output, '');
    assert.equal(big.stop?.message, 'output.file("b.txt") would take the generated files past 1000 bytes in all (deepSearch.evaluator.maxGeneratedFileSizeBytes)');
  } finally {
    fixture.limits = TEST_LIMITS;
  }
  const badName = await fixture.run('output.file("../etc/passwd", "x")');
  assert.match(badName.error ?? '', /^script:1: output\.file: the name "\.\.\/etc\/passwd" is not allowed/);
});

test('json round-trips values and reports bad input; text.format_table aligns a table', async () => {
  const outcome = await fixture.run(`
    local v = json.decode('{"name": "gin", "stars": 75000, "tags": ["go", "web"], "ratio": 0.5}')
    print(v.name, v.stars, v.tags[2], v.ratio, math.type(v.stars))
    print(json.encode({list = {1, 2, 3}, empty = {}}))
    print(text.format_table({{lang = "Go", files = 12}, {lang = "TypeScript", files = 3}}, {"lang", "files"}))
    print(text.format_table({{"a|b", 1.5}}, {"name", "n"}))
    local ok, err = pcall(json.decode, "{nope") print(ok, err)`);
  assert.equal(outcome.error, null);
  const [first, second, ...rest] = outcome.output.split('\n');
  assert.equal(first, 'gin\t75000\tweb\t0.5\tinteger');
  assert.deepEqual(JSON.parse(second!), { list: [1, 2, 3], empty: {} });
  assert.equal(rest.join('\n'), [
    '| lang       | files |', '|------------|------:|', '| Go         |    12 |', '| TypeScript |     3 |', '',
    '| name |   n |', '|------|----:|', '| a\\|b | 1.5 |', '',
    'false\tjson.decode: not valid JSON: Expected property name or \'}\' in JSON at position 1', '',
  ].join('\n'));
});

test('text.format_table takes a list that also has named fields (a search result cut at a limit) by its rows', async () => {
  const outcome = await fixture.run(`
    local rows = {{path = "a.go", line = 3}, {path = "b.go", line = 10}}
    rows.truncated = true
    print(text.format_table(rows, {"path", "line"}))
    print(pcall(text.format_table, {path = "a.go"}, {"path"}))`);
  assert.equal(outcome.error, null);
  assert.equal(outcome.output, [
    '| path | line |', '|------|-----:|', '| a.go |    3 |', '| b.go |   10 |', '',
    'false\ttext.format_table: rows must be a list of rows (tables)', '',
  ].join('\n'));
});

test('a returned value is printed, tables as JSON', async () => {
  const outcome = await fixture.run('return 1, "two", {three = 3}, nil, true');
  assert.equal(outcome.output, '1\ttwo\t{"three":3}\tnil\ttrue\n');
});

test('one caller\'s runaway script does not hold up another caller\'s', async () => {
  const runaway = fixture.run('while true do end', { owner: 'caller-a' });
  await sleep(200);
  const started = performance.now();
  const quick = await fixture.run('return 6 * 7', { owner: 'caller-b' });
  assert.equal(quick.output, '42\n');
  assert.ok(performance.now() - started < 1500, `the other caller waited ${performance.now() - started} ms`);
  assert.equal((await runaway).stop?.limit, 'maxExecutionSeconds');
});

test('a host call still running at the deadline ends the run at the deadline, and is cancelled with it', async () => {
  fixture.limits = { ...TEST_LIMITS, maxExecutionSeconds: 1 };
  try {
    let callSignal: AbortSignal | null = null;
    let cancelledAfterMs: number | null = null;
    const started = performance.now();
    const slow: HostCall = (name, args, signal) => {
      callSignal = signal;
      signal.addEventListener('abort', () => (cancelledAfterMs = performance.now() - started));
      return sleep(5000).then(() => echoCall(name, args, signal));
    };
    const outcome = await fixture.run('print("asking") search.keyword("slow") print("never")', { call: slow });
    assert.equal(outcome.stop?.limit, 'maxExecutionSeconds');
    assert.equal(outcome.output, 'asking\n');
    assert.ok(outcome.elapsedMs < 2500, `took ${outcome.elapsedMs} ms`);
    assert.equal(callSignal!.aborted, true, 'the search the script was waiting for must not run on after its run');
    assert.ok(cancelledAfterMs !== null && cancelledAfterMs < 2500, `cancelled after ${cancelledAfterMs} ms`);
  } finally {
    fixture.limits = TEST_LIMITS;
  }
});

test('a cancelled run rejects with ABORTED, and the runner goes on', async () => {
  const controller = new AbortController();
  chargeSignalTo(controller.signal, 'test-caller');
  const running = fixture.runner.run({ script: 'while true do end', signal: controller.signal, call: echoCall });
  await sleep(200);
  controller.abort();
  await assert.rejects(running, (err) => isQuarryError(err, 'ABORTED'));
  assert.equal((await fixture.run('return "next"')).output, 'next\n');
});

test('a new memory cap builds a new pool for later runs, and the heap cap holds there', async () => {
  const built = fixture.poolsBuilt.length;
  // Filling a heap with tables takes fengari seconds of CPU: a deadline a busy machine cannot reach first.
  fixture.limits = { ...TEST_LIMITS, maxMemoryBytes: 40 * 1024 * 1024, maxExecutionSeconds: 30 };
  try {
    const outcome = await fixture.run('local t = {} for i = 1, 1e7 do t[i] = {i} end');
    assert.equal(outcome.stop?.limit, 'maxMemoryBytes');
    assert.deepEqual(fixture.poolsBuilt.slice(built), [40]);
    assert.equal((await fixture.run('return "still here"')).output, 'still here\n');
  } finally {
    fixture.limits = TEST_LIMITS;
  }
  assert.equal((await fixture.run('return "back"')).output, 'back\n');
  assert.deepEqual(fixture.poolsBuilt.slice(built), [40, 64]);
});
