/**
 * Worker side: the modules a script sees. search.*, source.* and nav.* only forward their
 * arguments to the host (which runs them with the caller's permissions and counts them) and turn
 * the reply into Lua values (search rows built as the script touches them: lazy-rows.ts); json,
 * text, output and print run here. Errors are raised at the script's line, prefixed with the
 * function's name.
 */
import { decodeLua, lua, luaL, type LuaFunction, type LuaState } from './fengari-api.js';
import { formatTable, TableFormatError } from './format-table.js';
import { raise } from './lua-env.js';
import { LazyRows } from './lazy-rows.js';
import { pushValue, readValue, ValueError, type Plain } from './lua-values.js';
import { HOST_FUNCTIONS, type HostFunction } from './protocol.js';
import type { RunState } from './run-state.js';

/** Table entries a call's arguments may hold in all (a list of a few thousand paths fits). */
const MAX_ARGUMENT_ENTRIES = 10_000;
/** Table entries json.encode and text.format_table read. */
const MAX_VALUE_ENTRIES = 1_000_000;
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  csv: 'text/csv', tsv: 'text/tab-separated-values', json: 'application/json', md: 'text/markdown', html: 'text/html',
};

export function installModules(L: LuaState, run: RunState): void {
  const rows = new LazyRows(L);
  for (const name of Object.keys(HOST_FUNCTIONS) as HostFunction[]) {
    const [module, field] = name.split('.') as [string, string];
    if (lua.lua_getglobal(L, module) !== lua.LUA_TTABLE) {
      lua.lua_pop(L, 1);
      lua.lua_newtable(L);
      lua.lua_pushvalue(L, -1);
      lua.lua_setglobal(L, module);
    }
    lua.lua_pushcfunction(L, hostFunction(name, run, rows));
    lua.lua_setfield(L, -2, field);
    lua.lua_pop(L, 1);
  }
  setModule(L, 'json', { encode: jsonEncode, decode: jsonDecode });
  setModule(L, 'text', { format_table: tableFunction });
  setModule(L, 'output', { file: (state) => outputFile(state, run) });
  lua.lua_pushcfunction(L, (state) => print(state, run));
  lua.lua_setglobal(L, 'print');
}

function setModule(L: LuaState, name: string, functions: Readonly<Record<string, LuaFunction>>): void {
  lua.lua_createtable(L, 0, Object.keys(functions).length);
  for (const [field, fn] of Object.entries(functions)) {
    lua.lua_pushcfunction(L, fn);
    lua.lua_setfield(L, -2, field);
  }
  lua.lua_setglobal(L, name);
}

/** Reads a value, or raises `where: problem` in the script. */
function read(L: LuaState, idx: number, what: string, where: string, maxElements: number): Plain {
  let problem: string;
  try {
    return readValue(L, idx, { what, maxElements });
  } catch (err) {
    if (!(err instanceof ValueError)) throw err;
    problem = err.message;
  }
  return raise(L, `${where}: ${problem}`);
}

function push(L: LuaState, value: unknown, where: string): void {
  let problem: string;
  try {
    pushValue(L, value);
    return;
  } catch (err) {
    if (!(err instanceof ValueError)) throw err;
    problem = err.message;
  }
  raise(L, `${where}: the result holds ${problem}`);
}

function hostFunction(name: HostFunction, run: RunState, rows: LazyRows): LuaFunction {
  return (L) => {
    const args: Plain[] = [];
    for (let i = 1; i <= lua.lua_gettop(L); i++) args.push(read(L, i, `argument ${i}`, name, MAX_ARGUMENT_ENTRIES));
    const stopped = run.checkDeadline();
    if (stopped !== null) raise(L, stopped);
    const reply = run.channel.call(name, args);
    if (reply === null) raise(L, run.checkDeadline() ?? `${name} got no answer before the deadline`);
    if (!reply.ok) raise(L, reply.stop === undefined ? `${name}: ${reply.message}` : run.stopWith(reply.stop.limit, reply.stop.message));
    if ('rows' in reply) rows.push(L, reply.rows);
    else push(L, reply.value, name);
    return 1;
  };
}

function jsonEncode(L: LuaState): number {
  luaL.luaL_checkany(L, 1);
  const value = read(L, 1, 'the value', 'json.encode', MAX_VALUE_ENTRIES);
  lua.lua_pushstring(L, Buffer.from(JSON.stringify(value), 'utf8'));
  return 1;
}

function jsonDecode(L: LuaState): number {
  const text = decodeLua(luaL.luaL_checkstring(L, 1));
  let value: unknown;
  let problem: string | null = null;
  try {
    value = JSON.parse(text);
  } catch (err) {
    problem = `not valid JSON: ${(err as Error).message}`;
  }
  if (problem !== null) raise(L, `json.decode: ${problem}`);
  push(L, value, 'json.decode');
  return 1;
}

function tableFunction(L: LuaState): number {
  const rows = read(L, 1, 'rows', 'text.format_table', MAX_VALUE_ENTRIES);
  const columns = lua.lua_type(L, 2) <= lua.LUA_TNIL ? null : read(L, 2, 'columns', 'text.format_table', MAX_ARGUMENT_ENTRIES);
  let text: string | null = null;
  let problem = '';
  try {
    text = formatTable(rows, columns);
  } catch (err) {
    if (!(err instanceof TableFormatError)) throw err;
    problem = err.message;
  }
  if (text === null) raise(L, `text.format_table: ${problem}`);
  lua.lua_pushstring(L, Buffer.from(text, 'utf8'));
  return 1;
}

function outputFile(L: LuaState, run: RunState): number {
  const name = decodeLua(luaL.luaL_checkstring(L, 1));
  const data = luaL.luaL_checkstring(L, 2);
  const mime = luaL.luaL_optstring(L, 3, null);
  if (!FILE_NAME.test(name)) raise(L, `output.file: the name "${name.slice(0, 100)}" is not allowed: use up to 100 letters, digits, ".", "_" or "-", e.g. "report.csv"`);
  const mimeType = mime === null ? MIME_BY_EXTENSION[name.slice(name.lastIndexOf('.') + 1).toLowerCase()] ?? 'text/plain' : decodeLua(mime);
  const before = run.files.get(name);
  run.files.set(name, data.byteLength);
  const limit = run.limits.maxGeneratedFileSizeBytes;
  if (run.generatedBytes() > limit) {
    if (before === undefined) run.files.delete(name);
    else run.files.set(name, before);
    raise(L, run.stopWith('maxGeneratedFileSizeBytes', `output.file("${name}") would take the generated files past ${limit} bytes in all (deepSearch.evaluator.maxGeneratedFileSizeBytes)`));
  }
  run.channel.file(name, mimeType, data);
  return 0;
}

function print(L: LuaState, run: RunState): number {
  const parts: string[] = [];
  for (let i = 1; i <= lua.lua_gettop(L); i++) {
    parts.push(decodeLua(luaL.luaL_tolstring(L, i)));
    lua.lua_pop(L, 1);
  }
  run.channel.write(`${parts.join('\t')}\n`);
  return 0;
}
