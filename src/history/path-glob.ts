/**
 * Path globs for filtering changed files, read as .gitignore reads them: `*` and `?` stay within
 * one path segment, `**` spans any number of segments, `[...]` is a set; a glob with no `/` matches
 * a file or directory name at any depth (`*.go`, `vendor`), one with a `/` matches from the root
 * (`src/**`, `/go.sum`); a directory matched matches everything below it. Linear-time matching.
 */
import { createError } from '../errors.js';
import { compileRefGlob } from './ref-glob.js';

type SegmentTest = ((segment: string) => boolean) | 'any-depth';

/** A test for paths matching any of the globs; a blank glob is INVALID_ARGUMENT. */
export function compilePathGlobs(globs: readonly string[]): (path: string) => boolean {
  const tests = globs.map(compileOne);
  return (path) => {
    const segments = path.split('/');
    return tests.some((test) => test(segments));
  };
}

/** The glob that matches exactly this path from the root, its wildcard characters made literal. */
export function exactPathGlob(path: string): string {
  return `/${path.replace(/[*?[]/g, '[$&]')}`;
}

function compileOne(glob: string): (segments: readonly string[]) => boolean {
  const trimmed = glob.trim().replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '/') throw createError('INVALID_ARGUMENT', `path glob "${glob}" is empty: pass a glob such as "src/**" or "*.go"`, { glob });
  const anchored = trimmed.includes('/');
  const parts = trimmed.replace(/^\/+/, '').split('/').filter((p) => p !== '');
  const tests: SegmentTest[] = parts.map((part) => (part === '**' ? 'any-depth' : compileRefGlob(part.replace(/\*{2,}/g, '*'))));
  if (!anchored) {
    const name = tests[0]!;
    return name === 'any-depth' ? () => true : (segments) => segments.some(name);
  }
  return (segments) => matchesPrefix(tests, segments);
}

/**
 * Whether the glob's segments match the path's first segments (the rest lie below a matched
 * directory): a table over (glob segment, path segment) so `**` never backtracks.
 */
function matchesPrefix(tests: readonly SegmentTest[], segments: readonly string[]): boolean {
  // reach[j]: the glob segments read so far can end just before path segment j.
  let reach = new Uint8Array(segments.length + 1);
  reach[0] = 1;
  for (const test of tests) {
    const next = new Uint8Array(segments.length + 1);
    if (test === 'any-depth') {
      let on = 0;
      for (let j = 0; j <= segments.length; j++) {
        on |= reach[j]!;
        next[j] = on;
      }
    } else {
      for (let j = 0; j < segments.length; j++) if (reach[j] === 1 && test(segments[j]!)) next[j + 1] = 1;
    }
    reach = next;
  }
  // A trailing `**` may end at the very end; anything else must have matched at least one segment.
  return reach.some((r, j) => r === 1 && (j > 0 || tests.every((t) => t === 'any-depth')));
}
