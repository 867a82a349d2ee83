/**
 * The history index on real histories nobody here wrote (../shared/corpora, see its README):
 * diff search through the index lists exactly the commits `git log -G` lists on the default
 * branch, for literals and a regex. Skipped, saying why, when the corpora are absent.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compileDiffPattern } from '../../src/history/diff-match.js';
import { createDiffHistory } from '../../src/history/diff-service.js';
import { updateHistoryIndex } from '../../src/history/history-indexer.js';
import { openHistoryIndexes } from '../../src/index/history/history-store.js';
import { createEnginePool } from '../../src/pool/engine-pool.js';
import { git, makeTempDir, removeDir } from '../git/fixtures.js';
import { logG } from './history-fixture.js';

const CORPORA = fileURLToPath(new URL('../../../../shared/corpora/', import.meta.url));
const CASES: Readonly<Record<string, readonly [string, boolean][]>> = {
  requests: [['proxy_auth', false], ['deprecat', false], ['Retry\\(total', true]],
  ripgrep: [['deprecat', false], ['mmap', false]],
  gin: [['EPIPE', false], ['context.Context', false]],
  koa: [['koa-compose', false], ['ContentLength', false]],
};
const ERE_ESCAPE = /[\\^$.|?*+()[\]{}]/g;

for (const [name, cases] of Object.entries(CASES)) {
  const bundle = join(CORPORA, `${name}.bundle`);
  const skip = existsSync(bundle) ? false : `${bundle} is absent: the corpora live beside the project, not in it (../shared/corpora/README.md)`;
  test(`${name}: indexed diff search equals git log -G on the default branch`, { skip, timeout: 600_000 }, async () => {
    const root = makeTempDir(`quarry-corpus-${name}`);
    const pool = createEnginePool({ threads: 2 });
    const indexes = openHistoryIndexes(join(root, 'data'));
    try {
      const gitDir = join(root, `${name}.git`);
      execFileSync('git', ['clone', '--quiet', '--mirror', bundle, gitDir]);
      const branch = git(gitDir, 'for-each-ref', '--format=%(refname)', 'refs/heads/main', 'refs/heads/master').split('\n')[0]!;
      await updateHistoryIndex(indexes.of(1), gitDir, pool);
      const history = createDiffHistory(() => gitDir, pool, () => indexes.of(1));
      for (const [pattern, regex] of cases) {
        const found: string[] = [];
        let start: number | null = 0;
        while (start !== null) {
          const page = await history.searchDiffs([name], {
            pattern: compileDiffPattern(pattern, { regex, caseSensitive: false }), added: false, removed: false, metadata: null,
            after: null, before: null, revisions: [branch], count: 50, deadline: Date.now() + 120_000,
          }, start);
          assert.equal(page.timedOut, false);
          found.push(...page.hits.map((h) => h.hit.commit.oid));
          start = page.next;
        }
        const expected = logG(gitDir, regex ? pattern : pattern.replace(ERE_ESCAPE, '\\$&'), { rev: branch });
        assert.ok(expected.length > 0, `${pattern} occurs in ${name}`);
        assert.deepEqual(found, expected, `${name}: ${pattern}`);
      }
    } finally {
      await indexes.close();
      await pool.close();
      removeDir(root);
    }
  });
}
