/**
 * The sandbox's one import of fengari (the Lua 5.3 VM in JavaScript), and the two conversions
 * every caller of its API needs: Lua strings are byte arrays, decoded here as UTF-8.
 */
import { lauxlib, lua, lualib, type LuaState } from 'fengari';

export { lua, lauxlib as luaL, lualib };
export type { LuaFunction, LuaState } from 'fengari';

/** Lua bytes as a JavaScript string; invalid UTF-8 becomes U+FFFD. */
export function decodeLua(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** "nil", "table", "function"…: the type of the value at idx. */
export function typeName(L: LuaState, idx: number): string {
  return decodeLua(lauxlib.luaL_typename(L, idx));
}
