/**
 * Where the file view's code navigation starts, as the MCP navigation tools start: the file's
 * symbol tables from the index at the indexed commit, or parsed in the worker pool at any other
 * revision (that file then stands in for its indexed version), and a Resolver over the symbol
 * index limited to the repositories the viewer may read.
 */
import type { FileSymbols, SymbolIndex } from '../../../model/symbols.js';
import { parseSymbolName, findDefinition, type DefinitionAnswer } from '../../../symbols/navigation/definition.js';
import { SymbolLookup } from '../../../symbols/navigation/lookup.js';
import type { NavFile } from '../../../symbols/navigation/model.js';
import { Resolver } from '../../../symbols/navigation/resolve.js';
import { FileSymbolsCache } from '../../../symbols/navigation/symbol-cache.js';
import type { RepoAt } from './repo-page.js';
import type { WebServices } from './services.js';
import { blobUrl } from './web-paths.js';

export interface NavigationStart {
  readonly origin: NavFile;
  readonly resolver: Resolver;
}

/** One cache per symbol index, kept as long as the index: decoding tables costs more than resolving. */
const caches = new WeakMap<SymbolIndex, FileSymbolsCache>();

function cacheOf(index: SymbolIndex): FileSymbolsCache {
  let cache = caches.get(index);
  if (cache === undefined) caches.set(index, (cache = new FileSymbolsCache()));
  return cache;
}

/** The file's symbol tables at the page's commit, and whether they are the index's own. */
export async function fileSymbolsAt(services: WebServices, at: RepoAt, path: string, content: Uint8Array): Promise<{ symbols: FileSymbols | null; indexed: boolean }> {
  if ((await services.indexedCommit(at.repo)) === at.commit) {
    const symbols = cacheOf(services.symbols).get(at.repo, at.commit, path, () => services.symbols.fileSymbols(at.repo, path));
    if (symbols !== null) return { symbols, indexed: true };
  }
  return { symbols: await services.symbols.parse(path, content), indexed: false };
}

export async function startNavigation(services: WebServices, canRead: (repo: string) => boolean, at: RepoAt, path: string, content: Uint8Array): Promise<NavigationStart | null> {
  const { symbols, indexed } = await fileSymbolsAt(services, at, path, content);
  if (symbols === null) return null;
  const origin: NavFile = { repo: at.repo, commit: at.commit, path, symbols };
  return { origin, resolver: new Resolver(new SymbolLookup(services.symbols, canRead, indexed ? [] : [origin], cacheOf(services.symbols))) };
}

/** The identifier the tables hold at a 1-based line and character (a reference or a definition's name). */
export function identifierAt(symbols: FileSymbols, line: number, character: number): string | null {
  const l = line - 1;
  const c = character - 1;
  const covers = (r: { startLine: number; startColumn: number; endLine: number; endColumn: number }): boolean => r.startLine === l && r.startColumn <= c && c < r.endColumn;
  return symbols.references.find((r) => covers(r.range))?.name ?? symbols.definitions.find((d) => covers(d.nameRange))?.name ?? null;
}

/** go_to_definition's answer for the identifier at the position. */
export function definitionAt(start: NavigationStart, line: number, character: number): { name: string; answer: DefinitionAnswer | null } | null {
  const name = identifierAt(start.origin.symbols, line, character);
  const symbol = name === null ? null : parseSymbolName(name);
  if (name === null || symbol === null) return null;
  return { name, answer: findDefinition(start.resolver, start.origin, symbol, { line, column: character }) };
}

/** A place navigation found, at the page's revision when it is in the page's repository and commit, else at its own commit. */
export function siteUrl(at: RepoAt, file: NavFile, line: number): string {
  const rev = file.repo === at.repo && file.commit === at.commit ? at.rev : file.commit;
  return blobUrl(file.repo, rev, file.path, { start: line, end: line });
}

/** Where code navigation answers JSON: the file view's script asks with `Accept: application/json`. */
export function wantsJson(accept: string | undefined): boolean {
  return (accept ?? '').includes('application/json');
}

/** The 1-based `line` and `character` of a navigation URL, or null when either is missing or not a positive integer. */
export function positionOf(query: URLSearchParams): { line: number; character: number } | null {
  const line = Number(query.get('line'));
  const character = Number(query.get('character'));
  return Number.isSafeInteger(line) && line >= 1 && Number.isSafeInteger(character) && character >= 1 ? { line, character } : null;
}
