/**
 * GNU global as a navigation tool over the labelled fixtures, for comparison: gtags with the Pygments
 * plug-in (its built-in parser for C and Java), `global -d --nearness` for a usage's top definition,
 * `global -r` for references. global knows names, not scopes or imports.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

export interface GlobalProject {
  readonly tool: NavigationTool;
  dispose(): void;
}

/** Indexes a copy of the fixtures (gtags writes its tables into the project root). */
export function openGlobal(): GlobalProject {
  const work = mkdtempSync(join(tmpdir(), 'quarry-gtags-'));
  const root = join(work, 'src');
  cpSync(NAVIGATION_FIXTURES, root, { recursive: true });
  const conf = writeConf(work);
  execFileSync('gtags', [`--gtagsconf=${conf}`, '--gtagslabel=native-pygments'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const run = (args: string[]): LabelledLine[] => {
    // global exits 0 with no output for an unknown name: a failed run or an unreadable row is an error.
    const out = execFileSync('global', ['--result=grep', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, GTAGSCONF: conf, GTAGSLABEL: 'native-pygments' } });
    return out.split('\n').filter(Boolean).map((row) => {
      const m = /^([^/]+)\/(.+?):(\d+):/.exec(row);
      if (m === null) throw new Error(`global ${args.join(' ')}: unexpected output line ${row}`);
      return { repo: repoOfDir(m[1]!), path: m[2]!, line: Number(m[3]) };
    });
  };
  const dirOfRepo = (repo: string): string => repo.slice(repo.lastIndexOf('/') + 1);
  return {
    tool: {
      definitionOf: (usage) => run(['-d', `--nearness=${join(dirOfRepo(usage.repo), dirname(usage.path))}`, usage.name])[0] ?? null,
      referencesOf: (_definition, name) => run(['-r', name]),
    },
    dispose: () => rmSync(work, { recursive: true, force: true }),
  };
}
