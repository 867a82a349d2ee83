/**
 * The debug console's static files, read once from installed packages (GraphiQL and the React it
 * runs on): nothing is fetched from a CDN, so the console works on an offline instance.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface StaticAsset {
  readonly type: string;
  readonly body: Buffer;
}

const require = createRequire(import.meta.url);

const SOURCES: Readonly<Record<string, { readonly pkg: string; readonly file: string; readonly type: string }>> = {
  'react.js': { pkg: 'react', file: 'umd/react.production.min.js', type: 'text/javascript; charset=utf-8' },
  'react-dom.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css; charset=utf-8' },
};

/** The packages' "exports" maps hide their browser bundles from require.resolve, so go via package.json. */
function packageFile(pkg: string, file: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), file);
}

let loaded: Map<string, StaticAsset> | null = null;

/** The asset named `name` (e.g. `graphiql.js`), or undefined. */
export function consoleAsset(name: string): StaticAsset | undefined {
  loaded ??= new Map(Object.entries(SOURCES).map(([name, source]) => [name, { type: source.type, body: readFileSync(packageFile(source.pkg, source.file)) }]));
  return loaded.get(name);
}

export const CONSOLE_ASSET_NAMES: readonly string[] = Object.keys(SOURCES);
