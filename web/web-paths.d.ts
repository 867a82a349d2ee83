/**
 * The server's URL builders (src/api/pages/web/web-paths.ts), served to the browser as the asset
 * `web-paths.js` from the same compiled module, so pages and scripts write the same URLs. These are
 * its signatures, for the browser build, which cannot reach outside web/; test/api/pages/web-declarations.ts
 * fails the main build when they differ from the module's.
 */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}
export declare function repoUrl(repo: string, rev?: string | null): string;
export declare function repoViewUrl(repo: string, rev: string | null, view: string, path?: string): string;
export declare function blobUrl(repo: string, rev: string | null, path: string, range?: LineRange | null): string;
export declare function searchUrl(query: string): string;
