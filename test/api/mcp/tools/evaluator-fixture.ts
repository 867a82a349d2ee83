/**
 * Real repositories for the evaluator's tests, built with plain git and indexed as other tool tests
 * do: a Go package whose functions are called a known number of times, commits by three authors
 * over two directories, handlers that do or do not call a function, files in several languages,
 * and a repository the test caller may not read that uses the same names.
 */
import { execFileSync } from 'node:child_process';
import { updateSiteConfig, getSiteConfig } from '../../../../src/store/site-config.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../../e2e/engine-fixture.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../../../git/fixtures.js';

export const APP = 'github.com/acme/app';
export const SECRET = 'github.com/acme/secret';
export const canRead = (repo: string): boolean => repo !== SECRET;

/** f1 … f12 in package calc: fK is called K times, spread over two files. */
export const FUNCTIONS = 12;
export const AUTHORS = ['Ada Lovelace <ada@acme.test>', 'Brian Kernighan <bwk@acme.test>', 'Grace Hopper <grace@acme.test>'];

export interface EvaluatorWorld {
  readonly engine: EngineFixture;
  readonly sources: string;
  readonly appDir: string;
  /** Sets deepSearch.evaluator.* (and nothing else) in the site configuration. */
  setLimits(limits: Record<string, number>): void;
  close(): Promise<void>;
}

function calcPackage(): Record<string, string> {
  const defs = Array.from({ length: FUNCTIONS }, (_, i) => `func f${i + 1}(x int) int {\n\treturn x + ${i + 1}\n}\n`).join('\n');
  const calls = (from: number, to: number): string => {
    const lines: string[] = [];
    for (let k = 1; k <= FUNCTIONS; k++) for (let n = from; n < Math.min(k, to); n++) lines.push(`\ttotal += f${k}(${n})`);
    return lines.join('\n');
  };
  return {
    'calc/defs.go': `package calc\n\n${defs}`,
    'calc/use_a.go': `package calc\n\nfunc sumA() int {\n\ttotal := 0\n${calls(0, 5)}\n\treturn total\n}\n`,
    'calc/use_b.go': `package calc\n\nfunc sumB() int {\n\ttotal := 0\n${calls(5, 100)}\n\treturn total\n}\n`,
  };
}

const HANDLERS: Record<string, string> = {
  'web/login.ts': 'export function handleRequest(req: string): string {\n  audit(req);\n  return req;\n}\n',
  'web/logout.ts': 'export function handleRequest(req: string): string {\n  return req.trim();\n}\n',
  'web/admin.ts': 'export function handleRequest(req: string): string {\n  const x = audit(req);\n  return x;\n}\n',
  'web/health.ts': 'export function handleRequest(): string {\n  return "ok";\n}\n',
  'web/audit.ts': 'export function audit(what: string): string {\n  return what;\n}\n',
  'tools/gen.py': 'def generate(n):\n    return [i for i in range(n)]\n',
  'tools/check.py': 'def check(x):\n    return x > 0\n',
  'README.md': '# app\n\nThe app. Run `make`.\n',
};

function commitAs(dir: string, author: string, message: string): void {
  git(dir, 'add', '--all');
  git(dir, 'commit', '--quiet', '--allow-empty', '--author', author, '-m', message);
}

export async function buildEvaluatorWorld(): Promise<EvaluatorWorld> {
  const engine = await createEngineFixture();
  const sources = makeTempDir('quarry-evaluator');
  const appDir = initRepo(`${sources}/app`);
  writeFiles(appDir, { ...calcPackage(), ...HANDLERS });
  commitAs(appDir, AUTHORS[0]!, 'Initial import');
  // History: each author touches calc/ or web/ a known number of times.
  const plan: [number, string][] = [[0, 'calc'], [1, 'web'], [1, 'calc'], [2, 'calc'], [2, 'calc'], [0, 'web'], [1, 'calc'], [2, 'web'], [2, 'calc']];
  plan.forEach(([author, dir], i) => {
    writeFiles(appDir, { [`${dir}/notes_${i}.txt`]: `change ${i}\n` });
    commitAs(appDir, AUTHORS[author]!, `Change ${i} in ${dir}`);
  });
  await addAndIndex(engine, APP, appDir);
  const secretDir = initRepo(`${sources}/secret`);
  writeFiles(secretDir, {
    'calc/defs.go': 'package calc\n\nfunc f12(x int) int {\n\treturn x\n}\n\nfunc secretUse() int {\n\treturn f12(1) + f12(2)\n}\n',
    'web/login.ts': 'export function handleRequest(req: string): string {\n  return "classified " + req;\n}\n',
  });
  commitAll(secretDir, 'Classified import');
  await addAndIndex(engine, SECRET, secretDir);
  return {
    engine, sources, appDir,
    setLimits(limits) {
      const { store } = engine.engine;
      updateSiteConfig(store, getSiteConfig(store).id, JSON.stringify(Object.fromEntries(Object.entries(limits).map(([k, v]) => [`deepSearch.evaluator.${k}`, v]))));
    },
    async close() {
      await engine.engine.close();
      removeDir(engine.dataDir);
      removeDir(sources);
    },
  };
}

/** `git log` in the fixture's repository, for differential checks. */
export function gitLog(dir: string, ...args: string[]): string[] {
  const out = execFileSync('git', ['log', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  return out === '' ? [] : out.split('\n');
}
