/**
 * The part of fengari's API (Lua 5.3's C API, in JavaScript) the sandbox uses. Lua strings are
 * byte arrays; a "C function" is a JavaScript function of the Lua state returning its result count.
 */
declare module 'fengari' {
  export interface LuaState {
    readonly __luaState: unique symbol;
  }
  export type LuaString = Uint8Array;
  export type LuaFunction = (L: LuaState) => number;
  export type LuaHook = (L: LuaState, ar: unknown) => void;

  export const lua: {
    readonly LUA_OK: number;
    readonly LUA_YIELD: number;
    readonly LUA_ERRRUN: number;
    readonly LUA_ERRSYNTAX: number;
    readonly LUA_ERRMEM: number;
    readonly LUA_ERRERR: number;
    readonly LUA_MASKCOUNT: number;
    readonly LUA_MULTRET: number;
    readonly LUA_REGISTRYINDEX: number;
    readonly LUA_RIDX_GLOBALS: number;
    readonly LUA_TNIL: number;
    readonly LUA_TBOOLEAN: number;
    readonly LUA_TLIGHTUSERDATA: number;
    readonly LUA_TNUMBER: number;
    readonly LUA_TSTRING: number;
    readonly LUA_TTABLE: number;
    readonly LUA_TFUNCTION: number;
    readonly LUA_TUSERDATA: number;
    readonly LUA_TTHREAD: number;
    lua_absindex(L: LuaState, idx: number): number;
    lua_atnativeerror(L: LuaState, handler: LuaFunction | null): LuaFunction | null;
    lua_checkstack(L: LuaState, n: number): boolean;
    lua_createtable(L: LuaState, narr: number, nrec: number): void;
    lua_error(L: LuaState): never;
    lua_getfield(L: LuaState, idx: number, key: LuaString | string): number;
    lua_getglobal(L: LuaState, name: LuaString | string): number;
    lua_gettop(L: LuaState): number;
    lua_insert(L: LuaState, idx: number): void;
    lua_isinteger(L: LuaState, idx: number): boolean;
    lua_newtable(L: LuaState): void;
    lua_next(L: LuaState, idx: number): boolean;
    lua_pcall(L: LuaState, nargs: number, nresults: number, msgh: number): number;
    lua_pop(L: LuaState, n: number): void;
    lua_pushboolean(L: LuaState, b: boolean): void;
    lua_pushcclosure(L: LuaState, fn: LuaFunction, n: number): void;
    lua_pushcfunction(L: LuaState, fn: LuaFunction): void;
    lua_pushinteger(L: LuaState, n: number): void;
    lua_pushnil(L: LuaState): void;
    lua_pushnumber(L: LuaState, n: number): void;
    lua_pushstring(L: LuaState, s: LuaString | string): void;
    lua_pushvalue(L: LuaState, idx: number): void;
    lua_rawget(L: LuaState, idx: number): number;
    lua_rawgeti(L: LuaState, idx: number, n: number): number;
    lua_rawlen(L: LuaState, idx: number): number;
    lua_rawset(L: LuaState, idx: number): void;
    lua_remove(L: LuaState, idx: number): void;
    lua_rawseti(L: LuaState, idx: number, n: number): void;
    lua_setfield(L: LuaState, idx: number, key: LuaString | string): void;
    lua_setglobal(L: LuaState, name: LuaString | string): void;
    /** Writes the function on top of the stack as a binary chunk, piece by piece; a writer's non-zero return stops it. */
    lua_dump(L: LuaState, writer: (L: LuaState, bytes: LuaString, size: number, data: unknown) => number, data: unknown, strip: boolean): number;
    lua_sethook(L: LuaState, hook: LuaHook | null, mask: number, count: number): void;
    lua_setmetatable(L: LuaState, idx: number): void;
    lua_settop(L: LuaState, idx: number): void;
    lua_toboolean(L: LuaState, idx: number): boolean;
    lua_tocfunction(L: LuaState, idx: number): LuaFunction | object | null;
    lua_tointeger(L: LuaState, idx: number): number;
    lua_tonumber(L: LuaState, idx: number): number;
    lua_topointer(L: LuaState, idx: number): object | null;
    lua_tostring(L: LuaState, idx: number): LuaString | null;
    lua_touserdata(L: LuaState, idx: number): unknown;
    lua_type(L: LuaState, idx: number): number;
    lua_upvalueindex(i: number): number;
  };

  export const lauxlib: {
    luaL_argerror(L: LuaState, arg: number, message: LuaString | string): never;
    luaL_checkany(L: LuaState, arg: number): void;
    luaL_checkinteger(L: LuaState, arg: number): number;
    luaL_checkstring(L: LuaState, arg: number): LuaString;
    luaL_checktype(L: LuaState, arg: number, type: number): void;
    luaL_error(L: LuaState, fmt: LuaString | string, ...args: unknown[]): never;
    luaL_loadbufferx(L: LuaState, buffer: LuaString, size: number | null, name: LuaString | string, mode: LuaString | string | null): number;
    luaL_newstate(): LuaState;
    luaL_optstring(L: LuaState, arg: number, def: LuaString | string | null): LuaString | null;
    luaL_ref(L: LuaState, t: number): number;
    luaL_requiref(L: LuaState, name: LuaString | string, open: LuaFunction, global: number): void;
    luaL_tolstring(L: LuaState, idx: number): LuaString;
    luaL_typename(L: LuaState, idx: number): LuaString;
    luaL_traceback(L: LuaState, L1: LuaState, message: LuaString | string | null, level: number): void;
    luaL_where(L: LuaState, level: number): void;
  };

  export const lualib: {
    luaopen_base: LuaFunction;
    luaopen_coroutine: LuaFunction;
    luaopen_math: LuaFunction;
    luaopen_os: LuaFunction;
    luaopen_string: LuaFunction;
    luaopen_table: LuaFunction;
    luaopen_utf8: LuaFunction;
  };

  export function to_luastring(s: string, cache?: boolean): LuaString;
}
