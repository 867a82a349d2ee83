/**
 * The real-code navigation labels (bench/nav-real/labels/*.jsonl): loaded, checked against the
 * fetched sources (the name really is at each line and column), and split into the tuning and
 * held-out halves by the SHA-1 of each label's id.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../paths.js';

export const LABELS_DIR = join(REPO_ROOT, 'bench', 'nav-real', 'labels');

export const PROJECT_LANGUAGES: Readonly<Record<string, string>> = {
  requests: 'python', click: 'python', koa: 'javascript', commander: 'javascript', ws: 'javascript', 'markdown-it': 'javascript',
  semver: 'javascript', rxjs: 'typescript', ajv: 'typescript', zod: 'typescript', gin: 'go', cobra: 'go', ripgrep: 'rust',
  'regex-syntax': 'rust', 'extended-iterable': 'javascript', jq: 'c', jsoup: 'java',
};

export const CATEGORIES = [
  'local', 'same-file', 'same-package', 'import', 'reexport', 'receiver-typed', 'receiver-untyped', 'member-self', 'type', 'external',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** 1-based line in a project. */
export interface ProjectLine {
  readonly path: string;
  readonly line: number;
}

export type LabelledDefinition = ProjectLine | { readonly external: string };

export interface RealUsage extends ProjectLine {
  readonly id: string;
  readonly project: string;
  readonly column: number;
  readonly name: string;
  readonly category: Category;
  readonly definition: LabelledDefinition;
}

export interface RealReferenceSet {
  readonly id: string;
  readonly project: string;
  readonly name: string;
  readonly definition: ProjectLine;
  readonly references: readonly ProjectLine[];
}

export type Half = 'tuning' | 'held-out';

export interface RealLabels {
  readonly usages: readonly RealUsage[];
  readonly referenceSets: readonly RealReferenceSet[];
}

export function halfOf(id: string): Half {
  return createHash('sha1').update(id).digest()[0]! % 2 === 0 ? 'tuning' : 'held-out';
}

export function isExternal(d: LabelledDefinition): d is { readonly external: string } {
  return 'external' in d;
}

export function lineKey(l: ProjectLine): string {
  return `${l.path}:${l.line}`;
}

/** Reads every labels file; a label that does not match its source throws, naming it. */
export function loadRealLabels(corpus: string, projects?: readonly string[]): RealLabels {
  const usages: RealUsage[] = [];
  const referenceSets: RealReferenceSet[] = [];
  const lines = new SourceLines(corpus);
  for (const file of readdirSync(LABELS_DIR).filter((f) => f.endsWith('.jsonl')).sort()) {
    const project = file.slice(0, -'.jsonl'.length);
    if (projects !== undefined && !projects.includes(project)) continue;
    if (PROJECT_LANGUAGES[project] === undefined) throw new Error(`${file}: unknown project ${project}`);
    readFileSync(join(LABELS_DIR, file), 'utf8').split('\n').forEach((text, i) => {
      if (text.trim() === '') return;
      const where = `${file}:${i + 1}`;
      const row = JSON.parse(text) as Record<string, unknown>;
      if (row['type'] === 'usage') usages.push(checkUsage(project, row, lines, where));
      else if (row['type'] === 'references') referenceSets.push(checkReferences(project, row, lines, where));
      else throw new Error(`${where}: unknown label type ${String(row['type'])}`);
    });
  }
  const ids = new Set<string>();
  for (const { id } of [...usages, ...referenceSets]) {
    if (ids.has(id)) throw new Error(`label id ${id} is used twice`);
    ids.add(id);
  }
  return { usages, referenceSets };
}

class SourceLines {
  private readonly files = new Map<string, string[]>();

  constructor(private readonly corpus: string) {}

  line(project: string, at: ProjectLine, where: string): string {
    const key = `${project}/${at.path}`;
    let lines = this.files.get(key);
    if (lines === undefined) {
      lines = readFileSync(join(this.corpus, project, at.path), 'utf8').split('\n');
      this.files.set(key, lines);
    }
    const text = lines[at.line - 1];
    if (text === undefined) throw new Error(`${where}: ${key} has no line ${at.line}`);
    return text;
  }
}

function projectLine(value: unknown, where: string): ProjectLine {
  const v = value as Record<string, unknown> | null;
  if (v === null || typeof v !== 'object' || typeof v['path'] !== 'string' || !Number.isInteger(v['line']) || (v['line'] as number) < 1) {
    throw new Error(`${where}: expected {path, line}, got ${JSON.stringify(value)}`);
  }
  return { path: v['path'], line: v['line'] as number };
}

function checkUsage(project: string, row: Record<string, unknown>, lines: SourceLines, where: string): RealUsage {
  const { id, name, column, category } = row;
  if (typeof id !== 'string' || typeof name !== 'string' || !Number.isInteger(column)) throw new Error(`${where}: a usage needs id, name and column`);
  if (!(CATEGORIES as readonly string[]).includes(category as string)) throw new Error(`${where}: unknown category ${String(category)}`);
  const at = projectLine(row, where);
  const text = lines.line(project, at, where);
  if (text.slice((column as number) - 1, (column as number) - 1 + name.length) !== name) {
    throw new Error(`${where}: ${name} is not at ${at.path}:${at.line}:${String(column)} ("${text.trim()}")`);
  }
  const raw = row['definition'] as Record<string, unknown> | undefined;
  let definition: LabelledDefinition;
  if (raw !== undefined && typeof raw['external'] === 'string') definition = { external: raw['external'] };
  else {
    definition = projectLine(raw, where);
    if (!lines.line(project, definition, where).includes(name)) throw new Error(`${where}: the definition line ${lineKey(definition)} does not contain ${name}`);
  }
  return { id, project, ...at, column: column as number, name, category: category as Category, definition };
}

function checkReferences(project: string, row: Record<string, unknown>, lines: SourceLines, where: string): RealReferenceSet {
  const { id, name } = row;
  if (typeof id !== 'string' || typeof name !== 'string' || !Array.isArray(row['references'])) throw new Error(`${where}: a reference set needs id, name and references`);
  const definition = projectLine(row['definition'], where);
  const references = (row['references'] as unknown[]).map((r) => projectLine(r, where));
  for (const at of [definition, ...references]) {
    if (!lines.line(project, at, where).includes(name)) throw new Error(`${where}: ${lineKey(at)} does not contain ${name}`);
  }
  return { id, project, name, definition, references };
}
