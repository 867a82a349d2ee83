/**
 * Names an agent can guess: a repository by any unambiguous suffix of its name (`gorilla/mux`,
 * `mux`), and, when a repository, revision, file or directory does not exist, the closest ones that
 * do. Only names the caller may read are ever matched or suggested.
 */
import { shorten } from '../../../git/input.js';
import { ToolError, type ToolContext } from '../tool.js';

const MAX_SUGGESTIONS = 3;

/** The repository's full name for `name` (exact, else the one readable repository it is a suffix of), or a ToolError naming candidates. */
export function resolveRepoName(ctx: ToolContext, name: string): string {
  const canRead = ctx.principal.canRead;
  if (ctx.services.repos.get(name, canRead) !== null) return name;
  const names = ctx.services.repos.list(canRead).map((r) => r.name);
  const wanted = name.trim().replace(/^\/+|\/+$/g, '').toLowerCase();
  const bySuffix = wanted === '' ? [] : names.filter((n) => {
    const lower = n.toLowerCase();
    return lower === wanted || lower.endsWith(`/${wanted}`);
  });
  if (bySuffix.length === 1) return bySuffix[0]!;
  if (bySuffix.length > 1) {
    const shown = bySuffix.slice(0, 10).join(', ');
    throw new ToolError(`Repository name ${shorten(name)} is ambiguous: it matches ${bySuffix.length} repositories (${shown}${bySuffix.length > 10 ? ', …' : ''}). Pass one of them in full.`);
  }
  const near = closest(wanted.slice(wanted.lastIndexOf('/') + 1), names, (n) => n.slice(n.lastIndexOf('/') + 1));
  const hint = near.length > 0 ? ` Did you mean ${near.join(', ')}?` : '';
  throw new ToolError(`Repository not found: ${shorten(name)}.${hint} Use list_repos to find repository names.`);
}

/** ` Did you mean a, b?` for the files (or directories) of the commit nearest to `path` by name, or ''. */
export async function closestPathsHint(ctx: ToolContext, repo: string, commit: string, path: string, directories: boolean): Promise<string> {
  const tree = await ctx.services.repos.listTree(repo, commit, '', true);
  if (tree === null || path === '') return '';
  const paths = tree.filter((item) => item.isDirectory === directories).map((item) => item.path);
  const near = closest(path.slice(path.lastIndexOf('/') + 1), paths, (p) => p.slice(p.lastIndexOf('/') + 1));
  return near.length > 0 ? ` Did you mean ${near.join(', ')}?` : '';
}

/**
 * Up to three candidates nearest to `wanted`: the same name but for a `v` prefix or case, then the
 * ones within a small edit distance of it (of their `key`, the part compared), then those holding it.
 */
export function closest(wanted: string, candidates: readonly string[], key: (candidate: string) => string = (c) => c): string[] {
  const target = wanted.toLowerCase().replace(/^v(?=\d)/, '');
  if (target === '') return [];
  const limit = Math.max(1, Math.floor(target.length / 4));
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) {
    const k = key(name).toLowerCase().replace(/^v(?=\d)/, '');
    if (k === target) scored.push({ name, score: 0 });
    else if (Math.abs(k.length - target.length) <= limit) {
      const d = editDistance(k, target, limit);
      if (d <= limit) scored.push({ name, score: d });
      else if (k.includes(target) || target.includes(k)) scored.push({ name, score: limit + 1 });
    } else if (k.includes(target) || (k.length >= 3 && target.includes(k))) scored.push({ name, score: limit + 1 });
  }
  return scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length || (a.name < b.name ? -1 : 1))
    .slice(0, MAX_SUGGESTIONS).map((s) => s.name);
}

/**
 * Edit distance counting a swap of two neighbours as one edit (`mian` → `main`), stopping early
 * once every path is over `bound` (then any value above it).
 */
function editDistance(a: string, b: string, bound: number): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > bound) return bound + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
