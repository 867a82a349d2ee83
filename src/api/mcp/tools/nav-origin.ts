/**
 * Where a navigation call starts: the repository and commit asked for, and the file's symbol
 * tables, from the index at the indexed commit or parsed on demand at any other revision.
 */
import type { SymbolIndex } from '../../../model/symbols.js';
import { importOfName, type UsagePosition } from '../../../symbols/navigation/definition.js';
import { SymbolLookup } from '../../../symbols/navigation/lookup.js';
import { namesPath } from '../../../symbols/navigation/module-paths.js';
import { FileSymbolsCache } from '../../../symbols/navigation/symbol-cache.js';
import type { NavFile } from '../../../symbols/navigation/model.js';
import { Resolver } from '../../../symbols/navigation/resolve.js';
import { splitLines } from '../format.js';
import { ToolError, type ToolContext } from '../tool.js';
import { closestPathsHint } from './closest-names.js';
import { checkedPath } from './file-path.js';
import { describeAt, resolveRepoAtCommit, type RepoAtCommit } from './revision.js';

export interface NavigationStart {
  readonly at: RepoAtCommit;
  readonly origin: NavFile;
  readonly resolver: Resolver;
  /** Set when the file was parsed at a revision that is not indexed: other files come from the index. */
  readonly revisionNote: string | null;
}

export interface NavigationArgs {
  readonly repo: string;
  readonly path: string;
  readonly symbol: string;
  readonly revision?: string;
  readonly line?: number;
  readonly column?: number;
}

/** The usage position the caller gave, if any; a column without a line is refused. */
export function positionOf(args: NavigationArgs): UsagePosition | undefined {
  if (args.line === undefined) {
    if (args.column !== undefined) throw new ToolError('"column" needs "line": pass the 1-based line of the occurrence too.');
    return undefined;
  }
  return args.column === undefined ? { line: args.line } : { line: args.line, column: args.column };
}

/**
 * The answer when no definition was found: defined outside (an import names where it comes from, or
 * the name is a member of a language global such as `Symbol`) or not found at all.
 */
export function notFoundAnswer(symbol: string, name: string, start: NavigationStart, builtin: string | null = null): ToolError | string {
  if (builtin !== null) return `${name} is defined outside the indexed repositories: a member of the language's built-in ${builtin}.\n`;
  const imported = importOfName(start.origin.symbols, name);
  if (imported === undefined) return symbolNotFound(symbol, start);
  const where = `${start.origin.path} imports it from "${imported.source}" (line ${imported.range.startLine + 1})`;
  // A relative import names a file here: its definition was not found, which is not the same as outside.
  if (namesPath(imported.source)) return new ToolError(`Symbol not found: ${where}, but no definition of ${name} was found there. Use keyword_search to find it.`);
  return `${name} is defined outside the indexed repositories: ${where}.\n`;
}

/** One cache per symbol index, for as long as the index lives. */
const caches = new WeakMap<SymbolIndex, FileSymbolsCache>();

function cacheOf(index: SymbolIndex): FileSymbolsCache {
  let cache = caches.get(index);
  if (cache === undefined) {
    cache = new FileSymbolsCache();
    caches.set(index, cache);
  }
  return cache;
}

export async function startNavigation(ctx: ToolContext, args: NavigationArgs): Promise<NavigationStart> {
  const at = await resolveRepoAtCommit(ctx, args.repo, args.revision);
  const path = checkedPath(args.path);
  const index: SymbolIndex | undefined = ctx.services.symbols;
  if (index === undefined) throw new ToolError('Code navigation is not available on this server: it has no symbol tables. Use keyword_search to find the symbol instead.');
  const indexed = (await ctx.services.defaultCommit(at.repo)) === at.commit ? cacheOf(index).get(at.repo, at.commit, path, () => index.fileSymbols(at.repo, path)) : null;
  if (indexed !== null) {
    const origin = { repo: at.repo, commit: at.commit, path, symbols: indexed };
    return { at, origin, resolver: new Resolver(new SymbolLookup(index, ctx.principal.canRead, [], cacheOf(index))), revisionNote: null };
  }
  const blob = path === '' ? null : await ctx.services.repos.readBlob(at.repo, at.commit, path);
  if (blob === null) throw new ToolError(`File not found: ${path} (${describeAt(at)}).${await closestPathsHint(ctx, at.repo, at.commit, path, false)} Use list_files to see the directory.`);
  const symbols = await index.parse(path, blob);
  if (symbols === null) {
    throw new ToolError(`Code navigation does not support ${path}: its language has no symbol tables (or the file is too large to parse). Use keyword_search to find the symbol instead.`);
  }
  const origin = { repo: at.repo, commit: at.commit, path, symbols };
  const revisionNote = (await ctx.services.defaultCommit(at.repo)) !== at.commit
    ? `(${path} was read at ${describeAt(at)}, which is not indexed; names defined in other files were resolved in the indexed commits)`
    : ctx.services.symbolsPending?.(at.repo) === true
      ? `(the symbol tables of ${at.repo} are still being extracted: ${path} was parsed on demand, and other files are found only once their tables are ready; ask again later for a complete answer)`
      : null;
  return { at, origin, resolver: new Resolver(new SymbolLookup(index, ctx.principal.canRead, [origin], cacheOf(index))), revisionNote };
}

/** The file's lines at the commit its symbols come from, read once per call. */
export class FileLines {
  private readonly cache = new Map<string, Promise<string[] | null>>();

  constructor(private readonly ctx: ToolContext) {}

  get(file: NavFile): Promise<string[] | null> {
    const key = `${file.repo}\0${file.commit}\0${file.path}`;
    let lines = this.cache.get(key);
    if (lines === undefined) {
      lines = this.ctx.services.repos.readBlob(file.repo, file.commit, file.path).then((b) => (b === null ? null : splitLines(b.toString('utf8'))));
      this.cache.set(key, lines);
    }
    return lines;
  }
}

function symbolNotFound(symbol: string, start: NavigationStart): ToolError {
  return new ToolError(`Symbol not found: no definition of "${symbol}" is reachable from ${start.origin.path} (${describeAt(start.at)}). Check the spelling and the path, or use keyword_search to find it.`);
}
