/**
 * Which files an import's source names, per language family: relative JavaScript paths, Python
 * dotted and relative modules, Go import paths (a package is a directory), C includes, Rust
 * `crate::`/`super::`/`self::` paths and Java packages. Answers by predicate, so no file listing is needed.
 */
import type { LanguageFamily } from './language-rules.js';

export type ModuleTest = (repo: string, path: string) => boolean;

const NEVER: ModuleTest = () => false;

export function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** `a/b/../c/./d` → `a/c/d`; null when it climbs above the root. */
export function normalizePath(path: string): string | null {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

function joinPath(dir: string, rest: string): string | null {
  return normalizePath(dir === '' ? rest : `${dir}/${rest}`);
}

/** The path without its extension. */
export function stemOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') ? path.slice(0, dot) : path;
}

function endsWithSegments(path: string, suffix: string): boolean {
  return suffix !== '' && (path === suffix || path.endsWith(`/${suffix}`));
}

function lastSegment(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/** An import's source without the quotes or brackets it was written in. */
function unquoted(source: string): string {
  let clean = source.trim();
  if (clean !== '' && '"\'<'.includes(clean[0]!)) clean = clean.slice(1);
  if (clean !== '' && '">\''.includes(clean[clean.length - 1]!)) clean = clean.slice(0, -1);
  return clean;
}

/** The file name a C include names (`<linux/slab.h>` → `slab.h`): cInclude accepts no file named otherwise. */
export function includedFileName(source: string): string {
  return lastSegment(unquoted(source));
}

/** Whether moduleTest reads of the origin only its repository and directory (Rust reads the file's own module path). */
export function importsReadOnlyDirectory(family: LanguageFamily): boolean {
  return family !== 'rust';
}

/** The files `source`, imported from origin, may denote. */
export function moduleTest(family: LanguageFamily, originRepo: string, originPath: string, source: string): ModuleTest {
  const clean = unquoted(source);
  if (clean === '') return NEVER;
  switch (family) {
    case 'js': return jsModule(originRepo, originPath, clean);
    case 'python': return pythonModule(originRepo, originPath, clean);
    case 'go': return goPackage(originRepo, clean);
    case 'c': return cInclude(originRepo, originPath, clean);
    case 'rust': return rustModule(originRepo, originPath, clean);
    case 'jvm': return dottedModule(clean.replace(/\.\*$/, ''));
    case 'other': return dottedModule(clean);
  }
}

/** An import written as a path (`./util`, `../x`, `/abs`, Python's `.models`), not a package or module name. */
export function namesPath(source: string): boolean {
  return source.startsWith('.') || source.startsWith('/');
}

function jsModule(originRepo: string, originPath: string, source: string): ModuleTest {
  if (namesPath(source)) {
    const target = source.startsWith('/') ? normalizePath(source) : joinPath(dirOf(originPath), source);
    if (target === null) return NEVER;
    const wanted = /\.(m|c)?[jt]sx?$/.test(target) ? stemOf(target) : target;
    return (repo, path) => repo === originRepo && (stemOf(path) === wanted || stemOf(path) === `${wanted}/index`);
  }
  // A bare specifier names a package: `@acme/lib/util` is the repository ending in `lib`, file `util`.
  const parts = source.split('/');
  const packageName = source.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  const subpath = parts.slice(source.startsWith('@') ? 2 : 1).join('/');
  const repoTail = lastSegment(packageName);
  return (repo, path) => lastSegment(repo) === repoTail && (subpath === '' || endsWithSegments(stemOf(path), stemOf(subpath)) || endsWithSegments(stemOf(path), `${stemOf(subpath)}/index`));
}

function pythonModule(originRepo: string, originPath: string, source: string): ModuleTest {
  const dots = /^\.*/.exec(source)![0].length;
  const rest = source.slice(dots).split('.').filter(Boolean).join('/');
  if (dots > 0) {
    let base: string | null = dirOf(originPath);
    for (let i = 1; i < dots && base !== null; i++) base = base === '' ? null : dirOf(base);
    if (base === null) return NEVER;
    const target = rest === '' ? base : joinPath(base, rest);
    if (target === null) return NEVER;
    return (repo, path) => repo === originRepo && (stemOf(path) === target || stemOf(path) === (target === '' ? '__init__' : `${target}/__init__`));
  }
  return (_repo, path) => endsWithSegments(stemOf(path), rest) || endsWithSegments(stemOf(path), `${rest}/__init__`);
}

function goPackage(originRepo: string, source: string): ModuleTest {
  // The module path usually is the repository name, so `<repo>/<dir>` is the package's import path.
  return (repo, path) => {
    const dir = dirOf(path);
    const full = dir === '' ? repo : `${repo}/${dir}`;
    return source === full || source.endsWith(`/${full}`) || (repo === originRepo && dir !== '' && source.endsWith(`/${dir}`));
  };
}

function cInclude(originRepo: string, originPath: string, source: string): ModuleTest {
  const base = lastSegment(source);
  let beside: string | null | undefined;
  // Most files tested are not named like the include: the name check spares building the path.
  return (repo, path) => path.endsWith(base)
    && ((repo === originRepo && path === (beside ??= joinPath(dirOf(originPath), source))) || (endsWithSegments(path, source) && onIncludePath(repo === originRepo, originPath, path.slice(0, path.length - source.length))));
}

/**
 * Whether a directory a file was found under (`root`, ending in `/` or empty) can be on the
 * origin's include path: the repository root, a directory above the origin, or an `include`
 * directory beside one of those. So `<linux/kernel.h>` from `kernel/printk.c` is
 * `include/linux/kernel.h`, not `tools/include/linux/kernel.h` or a test tree's copy. Another
 * repository's headers are installed ones: any root will do.
 */
function onIncludePath(sameRepo: boolean, originPath: string, root: string): boolean {
  if (!sameRepo || root === '') return true;
  const above = root.endsWith('/include/') ? root.slice(0, -'include/'.length) : root === 'include/' ? '' : root;
  return originPath.startsWith(above);
}

/** Rust module path of a file: `src/a/b.rs` and `src/a/b/mod.rs` are `a/b`; `src/lib.rs` is the root. */
function rustModulePath(path: string): string {
  const stem = stemOf(path).replace(/^(.*\/)?src\//, '');
  if (stem === 'lib' || stem === 'main' || stem === 'mod') return '';
  return stem.replace(/\/(mod|lib|main)$/, '');
}

function rustModule(originRepo: string, originPath: string, source: string): ModuleTest {
  const segments = source.split('::').filter(Boolean);
  const head = segments[0];
  let base = '';
  let rest = segments;
  let sameCrate = true;
  if (head === 'crate') rest = segments.slice(1);
  else if (head === 'self' || head === 'super') {
    let module = rustModulePath(originPath);
    let i = 0;
    for (; segments[i] === 'super' || segments[i] === 'self'; i++) if (segments[i] === 'super') module = dirOf(module);
    base = module;
    rest = segments.slice(i);
  } else sameCrate = false;
  if (!sameCrate) {
    const crate = head!.replace(/_/g, '-');
    const inner = segments.slice(1).join('/');
    return (repo, path) => repo !== originRepo && lastSegment(repo).replace(/_/g, '-') === crate && rustModulePath(path) === inner;
  }
  const target = [base, ...rest].filter(Boolean).join('/');
  return (repo, path) => repo === originRepo && rustModulePath(path) === target;
}

/** Java-like: `com.acme.util.Strings` is a file `…/com/acme/util/Strings.java`, or a package directory. */
function dottedModule(source: string): ModuleTest {
  const suffix = source.split(/[.:/\\]+/).filter(Boolean).join('/');
  return (_repo, path) => endsWithSegments(stemOf(path), suffix) || endsWithSegments(dirOf(path), suffix);
}
