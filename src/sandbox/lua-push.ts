/** Pushing JavaScript strings and numbers as Lua values: strings as UTF-8, integers where fengari's 32-bit integers hold them. */
import { lua, type LuaState } from './fengari-api.js';

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

export function pushText(L: LuaState, text: string): void {
  lua.lua_pushstring(L, Buffer.from(text, 'utf8'));
}

export function pushNumber(L: LuaState, n: number): void {
  if (Number.isInteger(n) && n >= INT_MIN && n <= INT_MAX) lua.lua_pushinteger(L, n);
  else lua.lua_pushnumber(L, n);
}
