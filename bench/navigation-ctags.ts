/**
 * Debian's universal-ctags as a navigation tool for comparison, over the labelled fixtures or any tree. ctags
 * lists definitions only, by name: a usage's candidates are ranked same file, same directory, rest.
 */
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { NAVIGATION_FIXTURES, repoOfDir, type LabelledLine, type LabelledUsage } from '../test/fixtures/navigation-labels.js';

export function ctagsInstalled(): boolean {
  try {
    return execFileSync('ctags', ['--version'], { encoding: 'utf8' }).startsWith('Universal Ctags');
  } catch {
    return false;
  }
}

/** A definition ctags lists: under the first directory `top` of the tree, at `path` below it. */
export interface CtagsTag {
  readonly name: string;
  readonly top: string;
  readonly path: string;
  readonly line: number;
}

interface Tag extends LabelledLine {
  readonly name: string;
}

/** One JSON line of `ctags --output-format=json`: a tag, or a pseudo-tag to skip; anything else throws. */
function parseCtagsLine(text: string): CtagsTag | null {
  const row = JSON.parse(text) as Record<string, unknown>;
  if (row['_type'] === 'ptag') return null;
  const { _type: kind, name, path, line } = row;
  if (kind !== 'tag' || typeof name !== 'string' || typeof path !== 'string' || !Number.isInteger(line)) {
    throw new Error(`ctags: unexpected output line ${text}`);
  }
  const slash = path.indexOf('/');
  if (slash <= 0) throw new Error(`ctags: path outside a project directory: ${path}`);
  return { name, top: path.slice(0, slash), path: path.slice(slash + 1), line: line as number };
}

/** Every definition ctags finds under `root` (given as relative paths, one level per project), by name. */
export function ctagsByName(root: string, dirs: readonly string[] = ['.']): Map<string, CtagsTag[]> {
  const out = execFileSync('ctags', ['--output-format=json', '--fields=+n', '--langmap=TypeScript:+.mts', '-R', '-f', '-', ...dirs], { cwd: root, encoding: 'utf8', maxBuffer: 512 << 20 });
  const byName = new Map<string, CtagsTag[]>();
  for (const text of out.split('\n')) {
    if (text === '') continue;
    const tag = parseCtagsLine(text);
    if (tag === null) continue;
    byName.set(tag.name, [...(byName.get(tag.name) ?? []), tag]);
  }
  if (byName.size === 0) throw new Error(`ctags listed no tags under ${root}`);
  return byName;
}

/** Same file first, then the same directory, then the rest; ties keep ctags' (sorted) order. */
function nearness(usage: LabelledUsage, tag: Tag): number {
  if (tag.repo !== usage.repo) return 2;
  if (tag.path === usage.path) return 0;
  return dirname(tag.path) === dirname(usage.path) ? 1 : 2;
}

/** ctags' top definition for each usage; `.mts` is mapped to TypeScript as for global. */
export function ctagsDefinitions(root = NAVIGATION_FIXTURES): (usage: LabelledUsage) => LabelledLine | null {
  const byName = ctagsByName(root);
  return (usage) => {
    const candidates = (byName.get(usage.name) ?? []).map((t): Tag => ({ name: t.name, repo: repoOfDir(t.top), path: t.path, line: t.line }));
    const ranked = candidates.map((tag, order) => ({ tag, order, near: nearness(usage, tag) }))
      .sort((a, b) => a.near - b.near || a.order - b.order);
    const best = ranked[0]?.tag;
    return best === undefined ? null : { repo: best.repo, path: best.path, line: best.line };
  };
}
