/**
 * The import graph of src/ and the checks test/layers.test.ts runs on it: imports against a layer
 * table, and import circles. Pure functions over a graph, so a test can feed them made-up ones.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

export interface SourceFile {
  /** Repository path, e.g. `src/shard/verify.ts`. */
  readonly path: string;
  /** Every module specifier it names, as written. */
  readonly specifiers: readonly string[];
}

/** Each source file's repository path → the repository paths of the source files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Top to bottom: each layer with the layers below it that it may import. */
export type LayerTable = readonly (readonly [layer: string, mayImport: readonly string[]])[];

/**
 * The specifiers of static, type-only, re-export and dynamic imports: TypeScript's own scan, so
 * comments and strings that merely look like imports are not counted. Calls named require() are
 * not imports in ES modules (history/commit-match.ts has a local function of that name).
 */
export function importSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, false).importedFiles.map((f) => f.fileName);
}

export function readSources(root: string, dir: string): SourceFile[] {
  const walk = (abs: string): string[] => readdirSync(abs, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(abs, e.name)) : e.name.endsWith('.ts') ? [join(abs, e.name)] : []));
  return walk(join(root, dir)).map((file) => ({ path: relative(root, file).split(sep).join('/'), specifiers: importSpecifiers(readFileSync(file, 'utf8')) }));
}

/** Relative imports resolved to the source files they load (`./x.js` is `x.ts`); packages left out. */
export function importGraph(sources: readonly SourceFile[]): ImportGraph {
  return new Map(sources.map((s) => [s.path, s.specifiers.filter((spec) => spec.startsWith('.')).map((spec) => posix.join(posix.dirname(s.path), spec).replace(/\.js$/, '.ts'))]));
}

/** The layer a file of src/ belongs to: its top folder (each front door under api/ is its own), or the file itself at the top. */
export function layerOf(path: string): string {
  const [top, next] = path.split('/').slice(1);
  if (next === undefined) return top!;
  return top === 'api' ? `api/${next}` : top!;
}

/** Rows allowing a layer that is not below them or has no row: the table must run downward, so it holds no circle. */
export function tableProblems(table: LayerTable): string[] {
  const position = new Map(table.map(([layer], i) => [layer, i]));
  return table.flatMap(([layer, mayImport], i) => mayImport.filter((to) => !((position.get(to) ?? -1) > i)).map((to) => `${layer} may import ${to}, which is not a layer below it`));
}

/** `file → import` for every import of a file in src/ that its layer's row does not allow; a layer may always import itself. */
export function layerViolations(graph: ImportGraph, table: LayerTable): string[] {
  const rows = new Map(table.map(([layer, mayImport]) => [layer, new Set(mayImport)]));
  const violations: string[] = [];
  for (const [file, imports] of graph) {
    const from = layerOf(file);
    const mayImport = rows.get(from);
    if (mayImport === undefined) {
      violations.push(`${file}: ${from} has no row in the layer table`);
      continue;
    }
    for (const target of imports) {
      const to = layerOf(target);
      if (target.startsWith('src/') && to !== from && !mayImport.has(to)) violations.push(`${file} → ${target} (${from} may not import ${to})`);
    }
  }
  return violations;
}

/** Each import circle once, as `a → b → … → a` from its first file in sort order: the shortest circle through each file. */
export function importCircles(graph: ImportGraph): string[] {
  const circles = new Set<string>();
  for (const file of graph.keys()) {
    const circle = shortestCircle(graph, file);
    if (circle === null) continue;
    const first = circle.indexOf([...circle].sort()[0]!);
    const rotated = [...circle.slice(first), ...circle.slice(0, first)];
    circles.add([...rotated, rotated[0]].join(' → '));
  }
  return [...circles].sort();
}

/** The files of a shortest import path from `start` back to itself (breadth first), start first; null when there is none. */
function shortestCircle(graph: ImportGraph, start: string): string[] | null {
  const reachedFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!;
    for (const next of graph.get(file) ?? []) {
      if (next === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(reachedFrom.get(path[0]!)!);
        return path;
      }
      if (!reachedFrom.has(next) && graph.has(next)) {
        reachedFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}
