/**
 * The web app's static files: the browser scripts the build compiles from `web/` into `dist/web/`,
 * and the stylesheet. All are served under one path named by a hash of their contents, so a page
 * links the exact build it was rendered with and browsers may keep them for a year; relative
 * imports between scripts resolve inside that same path. Read once, at the first page.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_STYLE } from './repo-style.js';
import { SEARCH_STYLE } from './search-style.js';
import { APP_STYLE } from './style.js';

export interface WebAsset {
  readonly type: string;
  readonly body: Buffer;
}

export interface WebAssets {
  /** `/.assets/<hash>/`: where every asset of this build is served. */
  readonly base: string;
  readonly files: ReadonlyMap<string, WebAsset>;
}

export const ASSETS_ROOT = '/.assets/';

const HERE = dirname(fileURLToPath(import.meta.url));
/** dist/src/api/pages/web/ → dist/web/ */
const BUILT_SCRIPTS = join(HERE, '..', '..', '..', '..', 'web');
/** The URL builders and result rows are pure and import nothing, so the browser runs the server's own compiled modules. */
const SHARED_MODULES = ['web-paths.js', 'result-rows.js'];

const SCRIPT = 'text/javascript; charset=utf-8';

let loaded: WebAssets | null = null;

export function webAssets(): WebAssets {
  loaded ??= load();
  return loaded;
}

/** The search page's styles inlined in its HTML, and the content security policy source that allows them. */
export interface InlineStyle {
  readonly css: string;
  /** `'sha256-…'` of `css`. */
  readonly source: string;
}

let searchStyle: InlineStyle | null = null;

/**
 * The search page's whole stylesheet (the app's and the search page's, not the repository pages'),
 * for a `<style>` element: a linked stylesheet blocks the first paint until it is fetched, even
 * from the cache, and the search page is judged by how soon its first results are painted.
 */
export function inlineSearchStyle(): InlineStyle {
  if (searchStyle === null) {
    const css = APP_STYLE + SEARCH_STYLE;
    searchStyle = { css, source: `'sha256-${createHash('sha256').update(css).digest('base64')}'` };
  }
  return searchStyle;
}

/** The URL of one asset of this build (`app.js`, `app.css`). */
export function assetUrl(name: string): string {
  return `${webAssets().base}${name}`;
}

function load(): WebAssets {
  const files = new Map<string, WebAsset>([['app.css', { type: 'text/css; charset=utf-8', body: Buffer.from(APP_STYLE + REPO_STYLE + SEARCH_STYLE) }]]);
  if (!existsSync(BUILT_SCRIPTS)) throw new Error(`the web app's scripts are not built (${BUILT_SCRIPTS} is missing): run npm run build:ts`);
  for (const name of readdirSync(BUILT_SCRIPTS, { recursive: true, encoding: 'utf8' }).sort()) {
    if (name.endsWith('.js')) files.set(name.split('\\').join('/'), { type: SCRIPT, body: readFileSync(join(BUILT_SCRIPTS, name)) });
  }
  for (const name of SHARED_MODULES) files.set(name, { type: SCRIPT, body: readFileSync(join(HERE, name)) });
  const hash = createHash('sha256');
  for (const [name, file] of files) hash.update(name).update('\0').update(file.body).update('\0');
  return { base: `${ASSETS_ROOT}${hash.digest('base64url').slice(0, 16)}/`, files };
}
