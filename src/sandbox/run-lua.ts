/**
 * Worker side: one run of a script in a fresh Lua state, bounded by an instruction-count hook
 * (deadline, heap, and any limit already reached), the string memory budget (which also checks the
 * deadline per megabyte allocated) and the host's call counts.
 * What the script printed and wrote went to the host as it ran; the result says how it ended.
 */
import { decodeLua, lua, luaL, typeName, type LuaState } from './fengari-api.js';
import { openSandbox, raise } from './lua-env.js';
import { installModules } from './lua-modules.js';
import { luaText, readValue, ValueError } from './lua-values.js';
import { clearRunBudget, heapOverBudget, setRunBudget } from './memory-guard.js';
import type { RunResult, RunTask } from './protocol.js';
import { RunChannel } from './run-channel.js';
import { RunState } from './run-state.js';

/** Instructions between checks of the deadline: about a tenth of a millisecond of Lua. */
const HOOK_EVERY_INSTRUCTIONS = 1000;
/** Table entries a returned table may hold to be printed as JSON. */
const MAX_RETURNED_ENTRIES = 100_000;

export function runLua(task: RunTask): RunResult {
  const channel = new RunChannel(task);
  const run = new RunState(channel, task.limits, task.deadline);
  const beat = (): string | null => {
    channel.flushIfDue();
    if (heapOverBudget()) run.heapExceeded();
    return run.checkDeadline();
  };
  setRunBudget({ bytes: task.limits.maxMemoryBytes, exceeded: () => run.memoryExceeded(), beat });
  let error: string | null;
  try {
    error = execute(task.script, run, beat);
  } finally {
    clearRunBudget();
    channel.flush();
  }
  return { messages: channel.sent, error: run.stop === null ? error : null, stop: run.stop, droppedOutputChars: channel.droppedChars };
}

/** Runs the script; its error message (with the line), or null. */
function execute(script: string, run: RunState, beat: () => string | null): string | null {
  const L = openSandbox(() => run.stopMessage());
  installModules(L, run);
  if (luaL.luaL_loadbufferx(L, Buffer.from(script, 'utf8'), null, '=script', 't') !== lua.LUA_OK) return errorText(L);
  lua.lua_sethook(L, (state) => {
    const stopped = beat();
    if (stopped !== null) raise(state, stopped);
  }, lua.LUA_MASKCOUNT, HOOK_EVERY_INSTRUCTIONS);
  const status = lua.lua_pcall(L, 0, lua.LUA_MULTRET, 0);
  lua.lua_sethook(L, null, 0, 0);
  if (status !== lua.LUA_OK) return errorText(L);
  printReturned(L, run);
  return null;
}

/** The error value on top of the stack as text, as the standalone interpreter reports it. */
function errorText(L: LuaState): string {
  return luaText(L, -1) ?? `(error object is a ${typeName(L, -1)} value)`;
}

/** Values the script returned, printed like print() would, tables as JSON; read raw, so no script code runs. */
function printReturned(L: LuaState, run: RunState): void {
  const texts: string[] = [];
  for (let i = 1; i <= lua.lua_gettop(L); i++) texts.push(returnedText(L, i));
  if (texts.length > 0) run.channel.write(`${texts.join('\t')}\n`);
}

function returnedText(L: LuaState, idx: number): string {
  const type = lua.lua_type(L, idx);
  if (type === lua.LUA_TNIL) return 'nil';
  if (type === lua.LUA_TBOOLEAN) return String(lua.lua_toboolean(L, idx));
  if (type === lua.LUA_TSTRING || type === lua.LUA_TNUMBER) return decodeLua(lua.lua_tostring(L, idx)!);
  if (type !== lua.LUA_TTABLE) return `(a ${typeName(L, idx)})`;
  try {
    return JSON.stringify(readValue(L, idx, { what: 'the returned table', maxElements: MAX_RETURNED_ENTRIES }));
  } catch (err) {
    if (err instanceof ValueError) return `(a table that cannot be shown as JSON: ${err.message})`;
    throw err;
  }
}
