/**
 * Orders candidate definitions: by certainty first, then by closeness to the usage (qualifier
 * named, same directory, shared path, exported, a C definition over its header declaration,
 * production code over test and sample copies, source over built bundles and vendored copies).
 */
import { familyOf, isHeader, linkedFromOutside, parentOf, visibleAcrossFiles } from './language-rules.js';
import { certaintyRank, siteKey, type Certainty, type DefinitionSite, type NavFile, type RankedDefinition } from './model.js';
import { dirOf } from './module-paths.js';

export function scoreSite(origin: NavFile, site: DefinitionSite, qualifier: string | undefined): number {
  return siteScore(site, qualifier) + placeScore(origin.repo, origin.path, site);
}

/** The part of a site's score that is the site's own, wherever the usage is. */
export function siteScore(site: DefinitionSite, qualifier: string | undefined): number {
  let score = 0;
  const { definition, file } = site;
  const parent = parentOf(file, definition);
  if (qualifier !== undefined && qualifier !== '') {
    const stem = file.path.slice(file.path.lastIndexOf('/') + 1).replace(/\.[^.]*$/, '');
    if (parent?.name === qualifier || stem === qualifier || dirOf(file.path).endsWith(qualifier)) score += 16;
    // A receiver named after its type, shortened (`ctx` a context, `req` a request): a hint, not a binding.
    else if (abbreviates(qualifier, stem) || (parent !== undefined && abbreviates(qualifier, parent.name))) score += 4;
  }
  // Visible to other files: in C a header's `static inline` functions too, not a source file's macros.
  if (visibleAcrossFiles(file, definition)) score += 2;
  // A header only declares what a source file defines with external linkage; a macro or type in a
  // source file is no such definition (and is invisible to other files).
  if (familyOf(file.symbols.language) === 'c' && !isHeader(file.path) && linkedFromOutside(definition, parent)) score += 4;
  return score;
}

/** `short` is a shortening of `long`: its letters in order, the first one first (`ctx` of `context`, `cfg` of `Config`). */
export function abbreviates(short: string, long: string): boolean {
  if (short.length < 2 || short.length >= long.length) return false;
  const a = short.toLowerCase();
  const b = long.toLowerCase();
  if (a[0] !== b[0]) return false;
  let at = 1;
  for (let i = 1; i < b.length && at < a.length; i++) if (b[i] === a[at]) at++;
  return at === a.length;
}

/** The part of a site's score that depends on where the usage is: its repository and directory only. */
export function placeScore(originRepo: string, originPath: string, site: DefinitionSite): number {
  const { path, repo } = site.file;
  let score = 0;
  if (repo === originRepo) {
    if (dirOf(path) === dirOf(originPath)) score += 8;
    score += Math.min(3, sharedSegments(path, originPath));
  }
  if (isTestOrSamplePath(path) && !isTestOrSamplePath(originPath)) score -= 8;
  if (isCopiedPath(path) && !isCopiedPath(originPath)) score -= 8;
  return score;
}

const COPIED = /(?:^|\/)(?:dist|bundles?|vendor|third_party|node_modules)\/|\.min\.js$/;

/** Built bundles and vendored copies repeat the source's names; the source is what a usage means. */
function isCopiedPath(path: string): boolean {
  return COPIED.test(path);
}

const TEST_OR_SAMPLE_DIR = /(?:^|\/)(?:tests?|testing|selftests?|testdata|__tests__|specs?|samples?|examples?|fixtures?|mocks?|benchmarks?)\//i;

/**
 * Test, sample and benchmark trees copy production names (their own `kfree`, a local `struct sk_buff`)
 * to build on their own; production code means the production definition, tests may mean theirs.
 */
export function isTestOrSamplePath(path: string): boolean {
  return TEST_OR_SAMPLE_DIR.test(path);
}

/** How many leading directories two paths share (scored for thousands of files: no splitting). */
function sharedSegments(a: string, b: string): number {
  let n = 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length && a.charCodeAt(i) === b.charCodeAt(i); i++) if (a.charCodeAt(i) === 47) n++;
  return n;
}

export function rankSite(origin: NavFile, site: DefinitionSite, certainty: Certainty, qualifier: string | undefined): RankedDefinition {
  return { site, certainty, score: scoreSite(origin, site, qualifier) };
}

/** Ties go to the shallower file: of one name's copies, the generic one sits nearer the root (`include/asm-generic/bug.h`, not `arch/mips/include/asm/bug.h`). */
export function compareRanked(a: RankedDefinition, b: RankedDefinition): number {
  return certaintyRank(a.certainty) - certaintyRank(b.certainty) || b.score - a.score
    || depth(a.site.file) - depth(b.site.file) || cmp(a.site.file.repo, b.site.file.repo) || cmp(a.site.file.path, b.site.file.path)
    || a.site.definition.nameRange.startLine - b.site.definition.nameRange.startLine;
}

const depths = new WeakMap<NavFile, number>();

/** Directories above the file; kept per file, since sorting asks again and again. */
function depth(file: NavFile): number {
  let slashes = depths.get(file);
  if (slashes === undefined) {
    slashes = 0;
    for (let i = file.path.indexOf('/'); i !== -1; i = file.path.indexOf('/', i + 1)) slashes++;
    depths.set(file, slashes);
  }
  return slashes;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorted, one entry per definition (its most certain way of being reached). */
export function sortCandidates(candidates: readonly RankedDefinition[]): RankedDefinition[] {
  const best = new Map<string, RankedDefinition>();
  for (const c of candidates) {
    const key = siteKey(c.site);
    const seen = best.get(key);
    if (seen === undefined || compareRanked(c, seen) < 0) best.set(key, c);
  }
  return [...best.values()].sort(compareRanked);
}

/** The candidates as sure as the first: the ones a usage cannot tell apart. */
export function topTier(sorted: readonly RankedDefinition[]): RankedDefinition[] {
  const first = sorted[0];
  if (first === undefined) return [];
  return sorted.filter((c) => c.certainty === first.certainty && c.score === first.score);
}
