/**
 * Worker side: a packed list of rows (packed-rows.ts) as a Lua list whose rows are built when the
 * script first touches them. Until then a row is an empty table whose metatable fills it on any
 * read or write and then goes away; the base functions that look at tables raw (next, pairs,
 * rawget, rawset, getmetatable, setmetatable) and every read of a value leaving Lua (readValue) fill
 * it first, so a script cannot tell a row from one built eagerly. Field names and strings repeated
 * in a reply (repository, path, language) are made once per run and shared.
 */
import { lua, luaL, type LuaFunction, type LuaState } from './fengari-api.js';
import { pushNumber, pushText } from './lua-push.js';
import { CELL_NUMBER, CELL_STRING, CELL_TRUE, type PackedRows } from './packed-rows.js';

/** Strings longer than this are made per row: long ones (a line's text) rarely repeat. */
const SHARED_MAX_CHARS = 256;
/** Strings a run shares at most; past this, strings are made per row (a run's memory stays bounded). */
const MAX_SHARED_STRINGS = 20_000;
/** The base functions that see a table raw: each fills a row given as its first argument. */
const RAW_FUNCTIONS = ['next', 'pairs', 'rawget', 'rawset', 'getmetatable', 'setmetatable'];

interface Pending {
  readonly run: LazyRows;
  readonly rows: PackedRows;
  readonly at: number;
}

/** Rows not built yet, by fengari's table object (weak: a row dropped unbuilt is collected). */
const pending = new WeakMap<object, Pending>();

/** Fills the table at idx if it is a row not built yet; anything else is left alone. */
export function settleRow(L: LuaState, idx: number): void {
  if (lua.lua_type(L, idx) !== lua.LUA_TTABLE) return;
  const table = lua.lua_topointer(L, idx);
  const row = table === null ? undefined : pending.get(table);
  if (row === undefined) return;
  pending.delete(table!);
  row.run.fill(L, lua.lua_absindex(L, idx), row.rows, row.at);
}

const index: LuaFunction = (L) => {
  settleRow(L, 1);
  lua.lua_settop(L, 2);
  lua.lua_rawget(L, 1);
  return 1;
};

const newIndex: LuaFunction = (L) => {
  settleRow(L, 1);
  lua.lua_settop(L, 3);
  // What a plain assignment would raise, at the script's line.
  if (lua.lua_type(L, 2) === lua.LUA_TNIL) luaL.luaL_error(L, 'table index is nil');
  if (lua.lua_type(L, 2) === lua.LUA_TNUMBER && Number.isNaN(lua.lua_tonumber(L, 2))) luaL.luaL_error(L, 'table index is NaN');
  lua.lua_rawset(L, 1);
  return 0;
};

/** One run's lazy rows: the rows' metatable and the strings shared across its calls. */
export class LazyRows {
  private readonly metatable: number;
  private readonly shared: number;
  private readonly sharedSlots = new Map<string, number>();

  constructor(L: LuaState) {
    lua.lua_createtable(L, 0, 2);
    lua.lua_pushcfunction(L, index);
    lua.lua_setfield(L, -2, '__index');
    lua.lua_pushcfunction(L, newIndex);
    lua.lua_setfield(L, -2, '__newindex');
    this.metatable = luaL.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    lua.lua_createtable(L, 0, 0);
    this.shared = luaL.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    for (const name of RAW_FUNCTIONS) wrapRawFunction(L, name);
  }

  /** Pushes the list: its rows empty until touched, its named fields (`truncated`) set. */
  push(L: LuaState, rows: PackedRows): void {
    if (!lua.lua_checkstack(L, 4)) luaL.luaL_error(L, 'the result is too large for the Lua stack');
    const fields = rows.fields === null ? [] : Object.entries(rows.fields).filter(([, v]) => v !== null && v !== undefined);
    lua.lua_createtable(L, rows.count, fields.length);
    const list = lua.lua_gettop(L);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.metatable);
    const metatable = lua.lua_gettop(L);
    for (let i = 0; i < rows.count; i++) {
      lua.lua_createtable(L, 0, 0);
      lua.lua_pushvalue(L, metatable);
      lua.lua_setmetatable(L, -2);
      pending.set(lua.lua_topointer(L, -1)!, { run: this, rows, at: i });
      lua.lua_rawseti(L, list, i + 1);
    }
    lua.lua_pop(L, 1);
    for (const [key, value] of fields) {
      pushText(L, key);
      pushCell(L, value as string | number | boolean);
      lua.lua_rawset(L, list);
    }
  }

  /** Sets row `at`'s fields on the table at `idx` (absolute), in the record's key order, and drops its metatable. */
  fill(L: LuaState, idx: number, rows: PackedRows, at: number): void {
    if (!lua.lua_checkstack(L, 4)) luaL.luaL_error(L, 'a row too large for the Lua stack');
    lua.lua_pushnil(L);
    lua.lua_setmetatable(L, idx);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.shared);
    const shared = lua.lua_gettop(L);
    const { keys, strings, repeated, starts, cellKeys, tags, values } = rows;
    for (let c = starts[at]!, end = starts[at + 1]!; c < end; c++) {
      this.pushShared(L, shared, keys[cellKeys[c]!]!);
      const tag = tags[c];
      if (tag === CELL_STRING) {
        const id = values[c]!;
        const text = strings[id]!;
        if (repeated[id] === 1 && text.length <= SHARED_MAX_CHARS) this.pushShared(L, shared, text);
        else pushText(L, text);
      } else if (tag === CELL_NUMBER) pushNumber(L, values[c]!);
      else lua.lua_pushboolean(L, tag === CELL_TRUE);
      lua.lua_rawset(L, idx);
    }
    lua.lua_pop(L, 1);
  }

  /** Pushes the run's one Lua string for `text`, making it on first use (while there is room). */
  private pushShared(L: LuaState, shared: number, text: string): void {
    const slot = this.sharedSlots.get(text);
    if (slot !== undefined) {
      lua.lua_rawgeti(L, shared, slot);
      return;
    }
    pushText(L, text);
    if (this.sharedSlots.size >= MAX_SHARED_STRINGS) return;
    const made = this.sharedSlots.size + 1;
    this.sharedSlots.set(text, made);
    lua.lua_pushvalue(L, -1);
    lua.lua_rawseti(L, shared, made);
  }
}

function pushCell(L: LuaState, value: string | number | boolean): void {
  if (typeof value === 'string') pushText(L, value);
  else if (typeof value === 'number') pushNumber(L, value);
  else lua.lua_pushboolean(L, value);
}

/** Replaces the global base function `name` by one that fills a row given as its first argument, then does the same. */
function wrapRawFunction(L: LuaState, name: string): void {
  lua.lua_getglobal(L, name);
  const original = lua.lua_tocfunction(L, -1);
  lua.lua_pop(L, 1);
  if (typeof original !== 'function') throw new Error(`the sandbox's ${name} is not a base library function`);
  lua.lua_pushcfunction(L, (state) => {
    settleRow(state, 1);
    return original(state);
  });
  lua.lua_setglobal(L, name);
}
