/**
 * The history index on real histories nobody here wrote (../shared/corpora, see its README):
 * diff search through the index lists exactly the commits `git log -G` lists on the default
 * branch, for literals and a regex; so do commit_search's content terms, which the index decides,
 * page after page, in the order of the git-only path. Skipped, saying why, when the corpora are absent.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compileDiffPattern } from '../../src/history/diff-match.js';
import { updateCommitIndex } from '../../src/history/commit-indexer.js';
import { createDiffHistory } from '../../src/history/diff-service.js';
import { createHistoryService, type HistoryService } from '../../src/history/history-service.js';
import { updateHistoryIndex } from '../../src/history/history-indexer.js';
import { openCommitStore } from '../../src/index/commits/commit-store.js';
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
/** commit_search content terms: [terms, useRegex, caseSensitive]; most decided by the index, `\(` by git. */
const CONTENT_CASES: Readonly<Record<string, readonly [string[], boolean, boolean][]>> = {
  requests: [[['proxy_auth'], false, false], [['proxy_(auth|url)'], true, false], [['Retry\\(total'], true, false], [['HTTPAdapter'], false, true]],
  ripgrep: [[['mmap', 'deprecat'], false, false], [['^ *use std'], true, false]],
  gin: [[['EPIPE'], false, false], [['context.Context'], false, false]],
  koa: [[['koa-compose'], false, false], [['this.body'], false, true]],
};
const ERE_ESCAPE = /[\\^$.|?*+()[\]{}]/g;

for (const [name, cases] of Object.entries(CASES)) {
  const bundle = join(CORPORA, `${name}.bundle`);
  const skip = existsSync(bundle) ? false : `${bundle} is absent: the corpora live beside the project, not in it (../shared/corpora/README.md)`;
  test(`${name}: indexed diff search and commit_search content terms equal git log -G on the default branch`, { skip, timeout: 600_000 }, async () => {
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
      const commits = openCommitStore(join(root, 'data'));
      try {
        await updateCommitIndex(commits, 1, gitDir);
        const indexed = createHistoryService(commits, pool, () => indexes.of(1));
        const gitOnly = createHistoryService(commits, pool);
        for (const [terms, regex, caseSensitive] of CONTENT_CASES[name]!) {
          const label = `${name}: commit_search ${terms.join(',')}`;
          const found = await allCommitPages(indexed, gitDir, terms, regex, caseSensitive);
          const expected = logG(gitDir, terms.map((t) => (regex ? `(${t})` : t.replace(ERE_ESCAPE, '\\$&'))).join('|'), { rev: branch, caseSensitive });
          assert.ok(expected.length > 0, `${label} occurs`);
          assert.deepEqual([...found].sort(), [...expected].sort(), `${label}: the commits git log -G lists`);
          assert.deepEqual(found, await allCommitPages(gitOnly, gitDir, terms, regex, caseSensitive), `${label}: the git-only path's order`);
        }
      } finally {
        await commits.close();
      }
    } finally {
      await indexes.close();
      await pool.close();
      removeDir(root);
    }
  });
}

/** Every page of commit_search over the default branch, following `next`: the commits, in order. */
async function allCommitPages(history: HistoryService, gitDir: string, terms: string[], useRegex: boolean, caseSensitive: boolean): Promise<string[]> {
  const repo = { name: 'repo', id: 1, gitDir };
  const criteria = { messageTerms: [], authors: [], committers: [], files: [], useRegex, caseSensitive };
  const oids: string[] = [];
  let start: number | null = 0;
  while (start !== null) {
    const page = await history.searchCommits({ repos: [repo], criteria, contentTerms: terms, revisions: [], count: 40, start, deadline: Date.now() + 300_000 });
    oids.push(...page.commits.map((c) => c.commit.oid));
    start = page.next;
  }
  return oids;
}
