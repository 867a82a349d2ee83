/**
 * A fresh Lua state holding only what cannot reach the host: the base library without file loading
 * or collector control, string (without dump), table, math, utf8, coroutine, and os.time, os.date
 * and os.clock. Text chunks only. Once a run is stopped (`stopped()` returns its message) none of
 * the places Lua catches errors (pcall, xpcall, coroutine.resume, load's reader function) can
 * swallow it: each raises it again.
 */
import { lua, luaL, lualib, type LuaFunction, type LuaState } from './fengari-api.js';
import { pushText } from './lua-push.js';
import { luaText } from './lua-values.js';

const PRELUDE = `
local check, raw_load = ...
local raw_pcall, raw_xpcall, raw_resume, select = pcall, xpcall, coroutine.resume, select
pcall = function(...) return check(raw_pcall(...)) end
xpcall = function(...) return check(raw_xpcall(...)) end
coroutine.resume = function(...) return check(raw_resume(...)) end
load = function(chunk, name, mode, ...)
  if select('#', ...) > 0 then return check(raw_load(chunk, name, "t", ...)) end
  return check(raw_load(chunk, name, "t"))
end
getmetatable("").__metatable = false
string.dump, dofile, loadfile, collectgarbage, print = nil, nil, nil, nil, nil
`;

const LIBRARIES: readonly (readonly [string, LuaFunction])[] = [
  ['_G', lualib.luaopen_base],
  ['string', lualib.luaopen_string],
  ['table', lualib.luaopen_table],
  ['math', lualib.luaopen_math],
  ['utf8', lualib.luaopen_utf8],
  ['coroutine', lualib.luaopen_coroutine],
];

const OS_FUNCTIONS = ['time', 'date', 'clock'];

/** Set when a run must end: every catch point raises it again. */
type StopCheck = () => string | null;

export function openSandbox(stopped: StopCheck): LuaState {
  const L = luaL.luaL_newstate();
  for (const [name, open] of LIBRARIES) {
    luaL.luaL_requiref(L, name, open, 1);
    lua.lua_pop(L, 1);
  }
  openOsSubset(L);
  // A JavaScript exception inside the VM (a refused allocation, a RangeError) becomes a Lua error with its message.
  lua.lua_atnativeerror(L, (state) => {
    const err: unknown = lua.lua_touserdata(state, -1);
    pushText(state, err instanceof Error ? err.message : String(err));
    return 1;
  });
  runPrelude(L, stopped);
  return L;
}

function openOsSubset(L: LuaState): void {
  luaL.luaL_requiref(L, 'os', lualib.luaopen_os, 0);
  lua.lua_createtable(L, 0, OS_FUNCTIONS.length);
  for (const name of OS_FUNCTIONS) {
    lua.lua_getfield(L, -2, name);
    lua.lua_setfield(L, -2, name);
  }
  lua.lua_setglobal(L, 'os');
  lua.lua_pop(L, 1);
}

/**
 * The prelude as a binary chunk, compiled once per thread: parsing its source took a third of a
 * trivial run. Only the host loads binary chunks; scripts and their load() stay text-only.
 */
let compiledPrelude: Uint8Array | null = null;

function preludeChunk(): Uint8Array {
  if (compiledPrelude !== null) return compiledPrelude;
  const L = luaL.luaL_newstate();
  if (luaL.luaL_loadbufferx(L, Buffer.from(PRELUDE), null, '=prelude', 't') !== lua.LUA_OK) throw new Error(`the sandbox prelude does not compile: ${luaText(L, -1)}`);
  const parts: Uint8Array[] = [];
  // Kept with its debug information, so that its errors name the same lines as the source would.
  lua.lua_dump(L, (_, bytes, size) => {
    parts.push(Uint8Array.from(bytes.subarray(0, size)));
    return 0;
  }, null, false);
  compiledPrelude = Buffer.concat(parts);
  return compiledPrelude;
}

function runPrelude(L: LuaState, stopped: StopCheck): void {
  if (luaL.luaL_loadbufferx(L, preludeChunk(), null, '=prelude', 'b') !== lua.LUA_OK) throw new Error(`the sandbox prelude does not load: ${luaText(L, -1)}`);
  lua.lua_pushcfunction(L, (state) => {
    const message = stopped();
    if (message !== null) raise(state, message);
    return lua.lua_gettop(state);
  });
  lua.lua_getglobal(L, 'load');
  if (lua.lua_pcall(L, 2, 0, 0) !== lua.LUA_OK) throw new Error(`the sandbox prelude failed: ${luaText(L, -1)}`);
}

/** Raises `message` as a Lua error at the calling line (`script:12: …`); never returns. */
export function raise(L: LuaState, message: string): never {
  return luaL.luaL_error(L, '%s', Buffer.from(message, 'utf8'));
}
