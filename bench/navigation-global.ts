/**
 * GNU global as a navigation tool for comparison, over the labelled fixtures or any project tree: gtags with the Pygments
 * plug-in (its built-in parser for C and Java), `global -d --nearness` for a usage's top definition,
 * `global -r` for references. global knows names, not scopes or imports.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { NAVIGATION_FIXTURES, repoOfDir, type LabelledLine } from '../test/fixtures/navigation-labels.js';
import type { NavigationTool } from '../test/symbols/navigation/accuracy.js';

export function globalInstalled(): boolean {
  try {
    execFileSync('global', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Debian's gtags.conf names ctags-exuberant (universal-ctags is `ctags`) and maps no `.mts`. */
function writeConf(dir: string): string {
  const conf = readFileSync('/etc/gtags/gtags.conf', 'utf8')
    .replaceAll('/usr/bin/ctags-exuberant', '/usr/bin/ctags')
    .replace('langmap=TypeScript\\:.ts', 'langmap=TypeScript\\:.ts.mts');
  const path = join(dir, 'gtags.conf');
  writeFileSync(path, conf);
  return path;
}

/** `global --result=grep` rows as (first directory under the root, path below it, line). */
export interface GlobalRow {
  readonly top: string;
  readonly path: string;
  readonly line: number;
}

export interface GlobalIndex {
  run(args: readonly string[]): GlobalRow[];
  dispose(): void;
}

/** Indexes a copy of `source` (gtags writes its tables into the project root) whose first level is one directory per project. */
export function indexWithGlobal(source: string, include: (relativePath: string) => boolean = () => true): GlobalIndex {
  const work = mkdtempSync(join(tmpdir(), 'quarry-gtags-'));
  const root = join(work, 'src');
  cpSync(source, root, { recursive: true, filter: (from) => include(relative(source, from)) });
  const conf = writeConf(work);
  execFileSync('gtags', [`--gtagsconf=${conf}`, '--gtagslabel=native-pygments'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return {
    run(args) {
      // global exits 0 with no output for an unknown name: a failed run or an unreadable row is an error.
      const out = execFileSync('global', ['--result=grep', ...args], { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, GTAGSCONF: conf, GTAGSLABEL: 'native-pygments' } });
      return out.split('\n').filter(Boolean).map((row) => {
        const m = /^([^/]+)\/(.+?):(\d+):/.exec(row);
        if (m === null) throw new Error(`global ${args.join(' ')}: unexpected output line ${row}`);
        return { top: m[1]!, path: m[2]!, line: Number(m[3]) };
      });
    },
    dispose: () => rmSync(work, { recursive: true, force: true }),
  };
}

export interface GlobalProject {
  readonly tool: NavigationTool;
  dispose(): void;
}

/** global over the labelled fixtures. */
export function openGlobal(): GlobalProject {
  const index = indexWithGlobal(NAVIGATION_FIXTURES);
  const lines = (args: string[]): LabelledLine[] => index.run(args).map((r) => ({ repo: repoOfDir(r.top), path: r.path, line: r.line }));
  const dirOfRepo = (repo: string): string => repo.slice(repo.lastIndexOf('/') + 1);
  return {
    tool: {
      definitionOf: (usage) => lines(['-d', `--nearness=${join(dirOfRepo(usage.repo), dirname(usage.path))}`, usage.name])[0] ?? null,
      referencesOf: (_definition, name) => lines(['-r', name]),
    },
    dispose: index.dispose,
  };
}
