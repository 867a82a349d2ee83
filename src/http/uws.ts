/**
 * The one place uWebSockets.js is loaded. The package silently swaps in a slow pure-JS server when
 * its native binary does not load; `binding` says which one this process got.
 */
// A default import: the native addon's exports are invisible to Node's static CommonJS export
// detection, so a namespace import would hold only `default`.
import uws from 'uWebSockets.js';
import type { TemplatedApp } from 'uWebSockets.js';

export type UwsBinding = 'native' | 'js-fallback';

/**
 * The native addon exports SSLApp and native functions; the fallback (dist/index.js) exports only
 * App, written in JS. Checking both keeps a future fallback that adds SSLApp from passing as native.
 */
export const binding: UwsBinding = typeof (uws as Record<string, unknown>)['SSLApp'] === 'function' && Function.prototype.toString.call(uws.App).includes('[native code]')
  ? 'native'
  : 'js-fallback';

export { uws };
export type { HttpRequest as UwsRequest, HttpResponse as UwsResponse, TemplatedApp, us_listen_socket as UwsListenSocket } from 'uWebSockets.js';

/**
 * Closes every socket the app still holds, idle keep-alive connections included: closing the
 * listen socket leaves those open, holding the event loop until each client gives up on them (4 s
 * for Node's fetch). The native addon has `close`, though this version's typings do not; the
 * fallback has not, and its sockets are Node's own.
 */
export function closeEverySocket(app: TemplatedApp): void {
  const close = (app as Partial<Record<'close', () => void>>).close;
  if (typeof close === 'function') close.call(app);
}
