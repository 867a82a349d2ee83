/**
 * Diff search matches changed lines in pool workers, never on the main thread: every search goes
 * through the pool's diff-lines task (a batch of commits per task), the main-thread diff modules
 * cannot reach a matcher, and a runaway regex is cut off at the deadline by terminating its worker.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { DiffLineRunner } from '../../src/history/diff-lines.js';
import type { DiffLinesTask } from '../../src/pool/messages.js';
import type { SubmitOptions } from '../../src/pool/pool.js';
import { compileDiffPattern } from '../../src/history/diff-match.js';
import { createDiffHistory, type DiffQuery } from '../../src/history/diff-service.js';
import { createEnginePool } from '../../src/pool/engine-pool.js';
import type { EnginePool } from '../../src/pool/pool.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { createDiffRepo, expectLogG, removeDiffRepo, type DiffRepo } from './diff-fixture.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let repo: DiffRepo;
let runaway: string;
let pool: EnginePool;
before(() => {
  repo = createDiffRepo();
  runaway = makeTempDir('quarry-diff-runaway');
  initRepo(runaway);
  writeFiles(runaway, { 'evil.txt': `${'a'.repeat(40)}\n` });
  commitAll(runaway, 'evil');
  pool = createEnginePool({ threads: 1 });
});
after(async () => {
  await pool.close();
  removeDiffRepo(repo);
  removeDir(runaway);
});

function query(pattern: string, extra: Partial<DiffQuery> = {}): DiffQuery {
  return {
    pattern: compileDiffPattern(pattern, { regex: true, caseSensitive: true }),
    added: false, removed: false, metadata: null, after: null, before: null, revisions: [],
    count: 50, deadline: Date.now() + 30_000, ...extra,
  };
}

test('every batch of commits is matched by one diff-lines task in the pool', async () => {
  const tasks: { commits: number; lines: number }[] = [];
  const spy: DiffLineRunner = {
    // One body for both overloads of DiffLineRunner.submit: it forwards whatever it is given.
    submit: ((kind: 'diff-lines' | 'text-match', task: never, options?: SubmitOptions) => {
      if (kind === 'diff-lines') {
        const lines = task as DiffLinesTask;
        tasks.push({ commits: lines.commitEnds.length, lines: lines.ends.length });
      }
      return pool.submit(kind, task, options);
    }) as DiffLineRunner['submit'],
  };
  const outcome = await createDiffHistory(() => repo.dir, spy).searchDiffs(['repo'], query('delta'));
  assert.deepEqual(outcome.hits.map((h) => h.hit.commit.oid), expectLogG(repo, 'delta'));
  assert.ok(outcome.hits.length > 0);
  // The scripted history fits one batch: all its commits' lines cross in a single task.
  assert.equal(tasks.length, 1);
  assert.equal(tasks[0]!.commits, outcome.scanned);
  assert.ok(tasks[0]!.lines >= outcome.hits.flatMap((c) => c.hit.hunks.flatMap((h) => h.hits)).length);
});

/** Relative imports of `file` that load code (type-only imports are erased), as repository paths. */
function valueImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"](\.[^'"]+)['"]/g)].filter((m) => m[2] === undefined).map((m) => m[3]!);
  return specs.map((s) => join(file, '..', s).replace(/\.js$/, '.ts'));
}

test('the main-thread history and repository-selection modules never load a matcher or a worker-side scan', () => {
  const roots = [
    'src/history/diff-service.ts', 'src/history/repo-diff-search.ts', 'src/search/searchers/diff.ts', 'src/search/diff-terms.ts',
    'src/history/history-service.ts', 'src/search/searchers/commit.ts', 'src/search/select-repos.ts', 'src/search/searchers/repo.ts',
  ];
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...valueImports(file));
  }
  assert.ok(seen.has('src/history/diff-batch-match.ts') && seen.has('src/history/diff-lines.ts') && seen.has('src/history/text-atoms.ts'));
  const workerOnly = ['src/pool/matchers.ts', 'src/history/diff-line-scan.ts', 'src/history/text-batch-scan.ts', 'src/pool/worker.ts'];
  const forbidden = [...seen].filter((f) => f.startsWith('src/matcher/') || workerOnly.includes(f));
  assert.deepEqual(forbidden, []);
});

test('a runaway backtracking regex is stopped at the deadline and the pool keeps serving', async () => {
  const diffs = createDiffHistory(() => join(runaway, '.git'), pool);
  const started = Date.now();
  // A backreference: only the JS engine runs it, and on 40 a's it backtracks for ages.
  const outcome = await diffs.searchDiffs(['evil'], query('(a)a*a*a*a*a*a*a*a*a*a*a*a*\\1x', { deadline: Date.now() + 300 }));
  const elapsed = Date.now() - started;
  assert.ok(elapsed < 5000, `answered in ${elapsed} ms`);
  assert.deepEqual([outcome.timedOut, outcome.next, outcome.hits.length], [true, 0, 0]);
  const next = await diffs.searchDiffs(['evil'], query('a{40}'));
  assert.deepEqual(next.hits.map((h) => h.hit.hunks[0]!.hits[0]!.ranges), [[[0, 40]]]);
});
