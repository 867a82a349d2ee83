/**
 * Tool call arguments exactly as the client sent them, taken out of the parsed body before the SDK
 * validates it. The SDK's schema refuses an `arguments` object with a key named `constructor`
 * (answering -32603 with raw validation text) and turns a `__proto__` key into the copy's
 * prototype; our own checker (arguments.ts) reads the untouched JSON and names every bad key.
 */

/** JSON-RPC id of a tools/call request → its `arguments` member, for one HTTP request. */
export type DetachedArguments = ReadonlyMap<string | number, unknown>;

/** Removes `params.arguments` from every tools/call request in `body` (a parsed message or batch). */
export function detachToolArguments(body: unknown): DetachedArguments {
  const detached = new Map<string | number, unknown>();
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, id, params } = message as { method?: unknown; id?: unknown; params?: unknown };
    if (method !== 'tools/call' || (typeof id !== 'string' && typeof id !== 'number')) continue;
    if (typeof params !== 'object' || params === null || !Object.hasOwn(params, 'arguments')) continue;
    detached.set(id, (params as { arguments: unknown }).arguments);
    delete (params as { arguments?: unknown }).arguments;
  }
  return detached;
}
