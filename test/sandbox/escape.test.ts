/**
 * Escape attempts against the evaluator's sandbox, each its own test on real sandbox workers: each
 * fails closed within its limit with a clear error, and the next run is answered normally.
 */
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { after, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import type { ScriptOutcome } from '../../src/sandbox/script-runner.js';
import { createRunnerFixture, TEST_LIMITS } from './runner-fixture.js';

const fixture = createRunnerFixture();
after(() => fixture.runner.close());

const SECONDS = TEST_LIMITS.maxExecutionSeconds;
/** A busy two-core machine may be late by this much beyond a limit. */
const LATE_MS = 2500;

async function run(script: string): Promise<ScriptOutcome> {
  fixture.limits = TEST_LIMITS;
  const outcome = await fixture.run(script);
  assert.ok(outcome.elapsedMs < SECONDS * 1000 + LATE_MS, `took ${outcome.elapsedMs} ms`);
  return outcome;
}

/** The run failed with this script error, and a normal run works afterwards. */
async function failsWith(script: string, error: RegExp): Promise<void> {
  const outcome = await run(script);
  assert.equal(outcome.stop, null, JSON.stringify(outcome.stop));
  assert.match(outcome.error ?? '(no error)', error);
  await answersNormally();
}

/** The run was stopped by this limit, and a normal run works afterwards. */
async function stoppedBy(script: string, limit: string, output = ''): Promise<ScriptOutcome> {
  const outcome = await run(script);
  assert.equal(outcome.stop?.limit, limit, JSON.stringify(outcome));
  assert.equal(outcome.error, null);
  assert.equal(outcome.output, output);
  await answersNormally();
  return outcome;
}

async function answersNormally(): Promise<void> {
  const next = await run('local t = {} for i = 1, 10 do t[i] = i * i end print(t[10]) return #t');
  assert.deepEqual([next.output, next.error, next.stop], ['100\n10\n', null, null]);
}

test('the only reachable functions are the safe standard library and the service modules', async () => {
  const outcome = await run(`local seen, names = {}, {}
    local function walk(t, path)
      if seen[t] then return end
      seen[t] = true
      for k, v in pairs(t) do
        if type(v) == "function" then names[#names + 1] = path .. k elseif type(v) == "table" then walk(v, path .. k .. ".") end
      end
    end
    walk(_G, "")
    table.sort(names)
    return table.concat(names, " ")`);
  const expected = [
    'assert', 'coroutine.create', 'coroutine.isyieldable', 'coroutine.resume', 'coroutine.running', 'coroutine.status', 'coroutine.wrap',
    'coroutine.yield', 'error', 'getmetatable', 'ipairs', 'json.decode', 'json.encode', 'load',
    ...['abs', 'acos', 'asin', 'atan', 'ceil', 'cos', 'deg', 'exp', 'floor', 'fmod', 'log', 'max', 'min', 'modf', 'rad', 'random', 'randomseed', 'sin', 'sqrt', 'tan', 'tointeger', 'type', 'ult'].map((f) => `math.${f}`),
    'nav.definition', 'nav.references', 'next', 'os.clock', 'os.date', 'os.time', 'output.file', 'pairs', 'pcall', 'print', 'rawequal', 'rawget', 'rawlen', 'rawset',
    'search.commits', 'search.diffs', 'search.keyword', 'search.nls', 'search.symbols', 'select', 'setmetatable', 'source.list', 'source.read',
    ...['byte', 'char', 'find', 'format', 'gmatch', 'gsub', 'len', 'lower', 'match', 'pack', 'packsize', 'rep', 'reverse', 'sub', 'unpack', 'upper'].map((f) => `string.${f}`),
    ...['concat', 'insert', 'move', 'pack', 'remove', 'sort', 'unpack'].map((f) => `table.${f}`),
    'text.format_table', 'tonumber', 'tostring', 'type', 'utf8.char', 'utf8.codepoint', 'utf8.codes', 'utf8.len', 'utf8.offset', 'xpcall',
  ];
  assert.deepEqual(outcome.output.trim().split(' '), expected);
});

test('io.open is not there', async () => {
  await failsWith('return io.open("/etc/passwd")', /^script:1: attempt to index a nil value \(global 'io'\)$/);
});

test('os.execute is not there, nor any os function but time, date and clock', async () => {
  await failsWith('os.execute("touch /tmp/quarry-escaped")', /^script:1: attempt to call a nil value \(field 'execute'\)$/);
  const outcome = await run('return os.getenv, os.remove, os.exit, os.tmpname, type(os.time()), type(os.date("%Y")), type(os.clock())');
  assert.equal(outcome.output, 'nil\tnil\tnil\tnil\tnumber\tstring\tnumber\n');
});

test('require "os" is not there', async () => {
  await failsWith('local os = require "os"', /^script:1: attempt to call a nil value \(global 'require'\)$/);
  const outcome = await run('return package, dofile, loadfile, debug');
  assert.equal(outcome.output, 'nil\tnil\tnil\tnil\n');
});

test('bytecode cannot be loaded, by load or as the script itself', async () => {
  const outcome = await run('local f, err = load("\\27Lua\\83\\0\\25\\147\\13\\10\\26\\10", "x", "b") return f, err');
  assert.equal(outcome.output, "nil\tattempt to load a binary chunk (mode is 't')\n");
  await failsWith('\x1bLua\x53\x00', /attempt to load a binary chunk \(mode is 't'\)/);
  const text = await run('return load("return 1 + 1")()');
  assert.equal(text.output, '2\n');
});

test('debug.sethook is not there', async () => {
  await failsWith('debug.sethook()', /^script:1: attempt to index a nil value \(global 'debug'\)$/);
});

test('string.dump is not there, also through a string\'s methods', async () => {
  await failsWith('return string.dump(print)', /^script:1: attempt to call a nil value \(field 'dump'\)$/);
  await failsWith('return ("x").dump(print)', /^script:1: attempt to call a nil value \(field 'dump'\)$/);
});

test('a metatable on _G reaches nothing new, and the sandbox\'s own wrappers keep working', async () => {
  const outcome = await run(`
    setmetatable(_G, {__index = function(_, k) return "ghost-" .. k end, __newindex = function() error("blocked") end})
    print(io, type(require))
    rawset(_G, "pcall", nil)
    local ok = coroutine.resume(coroutine.create(function() error("x") end))
    return ok, type(os.execute)`);
  assert.equal(outcome.error, null);
  assert.equal(outcome.output, 'ghost-io\tstring\nfalse\tnil\n');
  await answersNormally();
});

test('the strings\' metatable can be neither read nor replaced', async () => {
  await failsWith('getmetatable("").__index.upper = nil', /^script:1: attempt to index a boolean value/);
  await failsWith('setmetatable("", {})', /bad argument #1 to 'setmetatable' \(table expected, got string\)/);
  const outcome = await run('return ("abc"):upper()');
  assert.equal(outcome.output, 'ABC\n');
});

test('string.rep("x", 2^31) is refused, and one just under it stops at the memory limit at once', async () => {
  await failsWith('return string.rep("x", 2^31)', /bad argument #2 to 'rep' \(number has no integer representation\)/);
  const outcome = await stoppedBy('return #string.rep("x", 2^31 - 1)', 'maxMemoryBytes');
  assert.ok(outcome.elapsedMs < 1000, `took ${outcome.elapsedMs} ms`);
});

test('a string doubled without end stops at the memory limit, pcall or not', async () => {
  const outcome = await stoppedBy('local s = "x" while true do pcall(function() s = s .. s end) end', 'maxMemoryBytes');
  assert.match(outcome.stop!.message, /ran out of memory: its strings may take 67108864 bytes \(deepSearch\.evaluator\.maxMemoryBytes\)/);
});

const GROWING_TABLE = 'print("growing") local t = {} local i = 0 while true do i = i + 1 t[i] = {i, tostring(i)} end';
/**
 * Filling a heap with Lua tables takes fengari seconds of CPU, so on a busy machine these runs get a
 * deadline that only a stuck guard would reach: the test is which memory limit stops them.
 */
const GROWING_SECONDS = 30;

/** The growing table's outcome under `limits` (the deadline raised), after which a normal run works. */
async function growingTable(maxMemoryBytes: number): Promise<ScriptOutcome> {
  fixture.limits = { ...TEST_LIMITS, maxMemoryBytes, maxExecutionSeconds: GROWING_SECONDS };
  const outcome = await fixture.run(GROWING_TABLE);
  assert.equal(outcome.stop?.limit, 'maxMemoryBytes', JSON.stringify(outcome));
  assert.equal(outcome.output, 'growing\n');
  await answersNormally();
  return outcome;
}

test('a table that grows forever is stopped by the run\'s heap check, before V8 terminates the worker at its cap', async () => {
  const outcome = await growingTable(TEST_LIMITS.maxMemoryBytes);
  assert.match(outcome.stop!.message, /^the script ran out of memory: its tables and other values filled much of the 67108864-byte heap a run may use \(deepSearch\.evaluator\.maxMemoryBytes\)$/);
});

test('under CPU load a table that grows forever still stops at the memory limit', async () => {
  // As many busy threads as the machine has cores, in this process beside the sandbox workers; the smallest heap a site may set.
  const spinners = Array.from({ length: availableParallelism() }, () => new Worker('for (;;) {}', { eval: true }));
  try {
    for (let i = 0; i < 3; i++) {
      const outcome = await growingTable(32 * 1024 * 1024);
      // The first run has a fresh worker to itself; after it a worker may not hand all its heap back to the next run at
      // once (see memory-guard.ts), and V8's own cap can then be the one reached, which is still the memory limit.
      if (i === 0) assert.match(outcome.stop!.message, /^the script ran out of memory: its tables and other values filled much of the 33554432-byte heap/);
    }
  } finally {
    await Promise.all(spinners.map((s) => s.terminate()));
  }
});

test('while true do end stops at the deadline, keeping what was printed', async () => {
  const outcome = await stoppedBy('print("started") while true do end', 'maxExecutionSeconds', 'started\n');
  assert.match(outcome.stop!.message, /^the script ran out of time: a run may take 3 s \(deepSearch\.evaluator\.maxExecutionSeconds\)$/);
  assert.ok(outcome.elapsedMs > SECONDS * 1000 - 1000, `stopped after ${outcome.elapsedMs} ms`);
});

test('pcall, xpcall, coroutine.resume and load\'s reader cannot catch the deadline', async () => {
  const inTime = async (script: string): Promise<void> => {
    const outcome = await stoppedBy(script, 'maxExecutionSeconds');
    // Stopped by the hook, not by terminating the worker at the deadline: the catch did not hold it.
    assert.doesNotMatch(outcome.stop!.message, /inside one long operation/);
  };
  await inTime('while true do pcall(function() while true do end end) end');
  await inTime('while true do xpcall(function() while true do end end, function(e) return e end) end');
  await inTime('while true do coroutine.resume(coroutine.create(function() while true do end end)) end');
  await inTime('while true do load(function() while true do end end) end');
});

test('deep recursion ends with a stack overflow error', async () => {
  await failsWith('local function f(n) return 1 + f(n + 1) end return f(1)', /^script:1: stack overflow$/);
  const caught = await run('local function f() return 1 + f() end local ok, err = pcall(f) return ok, err');
  assert.equal(caught.output, 'false\tscript:1: stack overflow\n');
});

test('coroutine storms end: nested resumes hit the C stack limit, endless creation a limit', async () => {
  await failsWith('local function nest() return coroutine.wrap(function() return nest()() end) end return nest()()', /stack overflow/);
  const outcome = await run('local all = {} while true do all[#all + 1] = coroutine.create(function() coroutine.yield() end) coroutine.resume(all[#all]) end');
  assert.ok(outcome.stop?.limit === 'maxMemoryBytes' || outcome.stop?.limit === 'maxExecutionSeconds', JSON.stringify(outcome.stop));
  await answersNormally();
});

test('a pattern with pathological backtracking is stopped at the deadline, keeping what was printed', async () => {
  const outcome = await stoppedBy('print("matching") return string.find(string.rep("a", 300000), ".-.-.-b")', 'maxExecutionSeconds', 'matching\n');
  assert.match(outcome.stop!.message, /its worker was stopped inside one long operation/);
  await stoppedBy('return string.find(string.rep("a", 50000), "(.-)*b")', 'maxExecutionSeconds');
});

test('a print loop is cut at a megabyte of output and stopped at the deadline', async () => {
  fixture.limits = TEST_LIMITS;
  const outcome = await fixture.run('local line = ("x"):rep(99) while true do print(line) end');
  assert.equal(outcome.stop?.limit, 'maxExecutionSeconds');
  assert.equal(outcome.output.length, 1024 * 1024);
  assert.ok(outcome.droppedOutputChars > 0);
  await answersNormally();
});

test('a script error reports the Lua message and its line', async () => {
  await failsWith('local x = 1\nlocal y = nil\nreturn x + y.z', /^script:3: attempt to index a nil value \(local 'y'\)$/);
  await failsWith('local x = = 1', /^script:1: unexpected symbol near '='$/);
  await failsWith('error({code = 1})', /^\(error object is a table value\)$/);
});
