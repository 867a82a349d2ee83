/**
 * The browser build's hand-written signatures of the server modules it is served (web/*.d.ts) are
 * checked here against those modules at compile time: `tsc -p tsconfig.json` fails when a name
 * the browser declares is missing from the server module or its type differs in any way.
 * No runtime code.
 */
import type * as SrcPaths from '../../../src/api/pages/web/web-paths.js';
import type * as SrcRows from '../../../src/api/pages/web/result-rows.js';
import type * as WebPaths from '../../../web/web-paths.js';
import type * as WebRows from '../../../web/result-rows.js';

/** True only when A and B are the same type (readonly, optional and `null` included), not merely assignable. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;

/** Every value the browser declares is exported by the server module with the same type. */
type SameValues<Web, Src> = { [K in keyof Web]: K extends keyof Src ? Same<Web[K], Src[K]> : false };

type AllTrue<T extends Record<string, true>> = T;

export type Checked = [
  AllTrue<SameValues<typeof WebPaths, typeof SrcPaths>>,
  AllTrue<SameValues<typeof WebRows, typeof SrcRows>>,
  AllTrue<{
    LineRange: Same<WebPaths.LineRange, SrcPaths.LineRange>;
    ChunkLocation: Same<WebRows.ChunkLocation, SrcRows.ChunkLocation>;
    ChunkMatch: Same<WebRows.ChunkMatch, SrcRows.ChunkMatch>;
    ResultRow: Same<WebRows.ResultRow, SrcRows.ResultRow>;
    ResultRows: Same<WebRows.ResultRows, SrcRows.ResultRows>;
  }>,
];
