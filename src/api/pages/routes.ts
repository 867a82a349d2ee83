/**
 * The pages as routes: the debug console and its assets. They hold no data and are open to anyone
 * (the page asks for a token and sends it with each GraphQL request).
 */
import type { Route } from '../../http/routes.js';
import { consoleAsset, CONSOLE_ASSET_NAMES } from './console-assets.js';
import { CONSOLE_ASSETS_PATH, CONSOLE_PATH, consolePage } from './console-page.js';

export function consoleRoutes(): Route[] {
  return [
    { method: 'GET', path: CONSOLE_PATH, handler: (_, reply) => reply.send(200, consolePage(), { 'Content-Type': 'text/html; charset=utf-8' }) },
    ...CONSOLE_ASSET_NAMES.map((name): Route => ({
      method: 'GET',
      path: `${CONSOLE_ASSETS_PATH}${name}`,
      handler(_, reply) {
        const asset = consoleAsset(name)!;
        reply.send(200, asset.body, { 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600' });
      },
    })),
  ];
}
