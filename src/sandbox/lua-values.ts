/**
 * Values between Lua and JavaScript, as plain data: strings as UTF-8, integers where Lua (fengari:
 * 32-bit) can hold them, tables as arrays (keys 1..n) or objects. Tables are read raw, so no script
 * code runs here (a search row not built yet is built first), and reading is bounded by depth and
 * element count; functions do not cross.
 */
import { decodeLua, lua, typeName, type LuaState } from './fengari-api.js';
import { settleRow } from './lazy-rows.js';
import { pushNumber, pushText } from './lua-push.js';

export const MAX_DEPTH = 64;

export type Plain = null | boolean | number | string | readonly Plain[] | { readonly [key: string]: Plain };

/** A value that cannot cross, with what to change; raised in the script as its error. */
export class ValueError extends Error {}

/** The string at idx as UTF-8 (invalid bytes become U+FFFD), or null when it is no string or number. */
export function luaText(L: LuaState, idx: number): string | null {
  const type = lua.lua_type(L, idx);
  if (type !== lua.LUA_TSTRING && type !== lua.LUA_TNUMBER) return null;
  const bytes = lua.lua_tostring(L, idx);
  return bytes === null ? null : decodeLua(bytes);
}

/** Pushes a JavaScript value (plain data) as a Lua value; ValueError for what cannot cross. */
export function pushValue(L: LuaState, value: unknown): void {
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return new ValuePusher(L, 0).push(value, 0);
  // Tables repeat their keys and many values (a repository, a commit): each distinct string is
  // made once per call, kept in a scratch table below the result, then reused.
  lua.lua_createtable(L, 0, 0);
  new ValuePusher(L, lua.lua_gettop(L)).push(value, 0);
  lua.lua_remove(L, -2);
}

/** Strings up to this long are made once per pushValue call; longer ones rarely repeat. */
const POOLED_MAX_CHARS = 256;

class ValuePusher {
  private readonly pooled = new Map<string, number>();

  /** `pool`: the stack index of the scratch table of strings made so far, or 0 for none. */
  constructor(private readonly L: LuaState, private readonly pool: number) {}

  push(value: unknown, depth: number): void {
    const { L } = this;
    if (depth > MAX_DEPTH) throw new ValueError(`a value nested more than ${MAX_DEPTH} deep`);
    if (!lua.lua_checkstack(L, 3)) throw new ValueError('a value too large for the Lua stack');
    if (value === null || value === undefined) lua.lua_pushnil(L);
    else if (typeof value === 'boolean') lua.lua_pushboolean(L, value);
    else if (typeof value === 'number') pushNumber(L, value);
    else if (typeof value === 'string') this.text(value);
    else if (value instanceof Uint8Array) lua.lua_pushstring(L, value);
    else if (Array.isArray(value)) this.list(value, depth);
    else if (typeof value === 'object') this.record(value as Record<string, unknown>, depth);
    else throw new ValueError(`a JavaScript ${typeof value} cannot become a Lua value`);
  }

  private text(text: string): void {
    const { L } = this;
    if (this.pool === 0 || text.length > POOLED_MAX_CHARS) return pushText(L, text);
    const made = this.pooled.get(text);
    if (made !== undefined) {
      lua.lua_rawgeti(L, this.pool, made);
      return;
    }
    pushText(L, text);
    const id = this.pooled.size + 1;
    this.pooled.set(text, id);
    lua.lua_pushvalue(L, -1);
    lua.lua_rawseti(L, this.pool, id);
  }

  private list(value: readonly unknown[], depth: number): void {
    const { L } = this;
    // A list may carry named fields too (`truncated`, `total`): they become the table's string keys.
    const keys = Object.keys(value);
    const fields = keys.length === value.length ? [] : keys.filter((key) => !/^\d+$/.test(key));
    lua.lua_createtable(L, value.length, fields.length);
    for (let i = 0; i < value.length; i++) {
      this.push(value[i], depth + 1);
      lua.lua_rawseti(L, -2, i + 1);
    }
    for (const key of fields) this.field(key, (value as unknown as Record<string, unknown>)[key], depth);
  }

  private record(value: Record<string, unknown>, depth: number): void {
    const keys = Object.keys(value);
    lua.lua_createtable(this.L, 0, keys.length);
    for (const key of keys) this.field(key, value[key], depth);
  }

  private field(key: string, value: unknown, depth: number): void {
    if (value === undefined || value === null) return;
    this.text(key);
    this.push(value, depth + 1);
    lua.lua_rawset(this.L, -3);
  }
}

export interface ReadBounds {
  /** What the value is, for errors: "the options of search.keyword". */
  readonly what: string;
  /** Most table entries read in all. */
  readonly maxElements: number;
}

/** The Lua value at idx as plain data; ValueError for functions, threads, cycles, or too much. */
export function readValue(L: LuaState, idx: number, bounds: ReadBounds): Plain {
  const counter = { left: bounds.maxElements };
  return read(L, lua.lua_absindex(L, idx), bounds, counter, 0);
}

function read(L: LuaState, idx: number, bounds: ReadBounds, counter: { left: number }, depth: number): Plain {
  const type = lua.lua_type(L, idx);
  if (type === lua.LUA_TNIL) return null;
  if (type === lua.LUA_TBOOLEAN) return lua.lua_toboolean(L, idx);
  if (type === lua.LUA_TNUMBER) {
    const n = lua.lua_isinteger(L, idx) ? lua.lua_tointeger(L, idx) : lua.lua_tonumber(L, idx);
    return Number.isFinite(n) ? n : null;
  }
  if (type === lua.LUA_TSTRING) return luaText(L, idx);
  if (type !== lua.LUA_TTABLE) throw new ValueError(`${bounds.what} holds a ${typeName(L, idx)}, which cannot be passed; pass strings, numbers, booleans and tables of them`);
  if (depth >= MAX_DEPTH) throw new ValueError(`${bounds.what} nests tables more than ${MAX_DEPTH} deep (or holds a table that contains itself)`);
  if (!lua.lua_checkstack(L, 4)) throw new ValueError(`${bounds.what} is too large`);
  settleRow(L, idx);
  const keys: (string | number)[] = [];
  const values: Plain[] = [];
  lua.lua_pushnil(L);
  while (lua.lua_next(L, idx)) {
    if (--counter.left < 0) {
      lua.lua_pop(L, 2);
      throw new ValueError(`${bounds.what} has more than ${bounds.maxElements} table entries`);
    }
    const keyType = lua.lua_type(L, -2);
    if (keyType === lua.LUA_TNUMBER && lua.lua_isinteger(L, -2)) keys.push(lua.lua_tointeger(L, -2));
    else if (keyType === lua.LUA_TSTRING) keys.push(luaText(L, -2)!);
    else {
      const name = keyType === lua.LUA_TNUMBER ? 'fractional number' : typeName(L, -2);
      lua.lua_pop(L, 2);
      throw new ValueError(`${bounds.what} has a ${name} key; table keys must be strings or integers`);
    }
    values.push(read(L, lua.lua_gettop(L), bounds, counter, depth + 1));
    lua.lua_pop(L, 1);
  }
  return isSequence(keys) ? orderBySequence(keys as number[], values) : Object.fromEntries(keys.map((k, i) => [String(k), values[i]!]));
}

/** Keys 1..n in any order; an empty table reads as an empty object. */
function isSequence(keys: readonly (string | number)[]): boolean {
  if (keys.length === 0) return false;
  const seen = new Set<number>();
  for (const key of keys) {
    if (typeof key !== 'number' || key < 1 || key > keys.length || seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function orderBySequence(keys: readonly number[], values: readonly Plain[]): Plain[] {
  const out: Plain[] = new Array(keys.length);
  keys.forEach((key, i) => (out[key - 1] = values[i]!));
  return out;
}
