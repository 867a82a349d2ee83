/**
 * commit_search content terms decided by the history index against `git log -G` itself: ASCII-only
 * case folding (the Kelvin sign and long s are no k or s to git's C locale), Latin-1 lines, a
 * removed line, a merge (no diff), anchors; terms git reads otherwise (`.`, non-ASCII text, a regex
 * matching the empty string) still go to git, and the terms the index decides run no git at all.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { updateCommitIndex } from '../../src/history/commit-indexer.js';
import { createHistoryService, type HistoryService } from '../../src/history/history-service.js';
import { updateHistoryIndex } from '../../src/history/history-indexer.js';
import { openCommitStore, type CommitStore } from '../../src/index/commits/commit-store.js';
import { openHistoryIndexes, type HistoryIndexes } from '../../src/index/history/history-store.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';
import type { EnginePool } from '../../src/pool/pool.js';
import { git, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { logG } from './history-fixture.js';

const ERE_ESCAPE = /[\\^$.|?*+()[\]{}]/g;
/** [terms, useRegex, caseSensitive]: each decided by the index. */
const DECIDED: readonly [string[], boolean, boolean][] = [
  [['kelvinword'], false, false], [['KELVINWORD'], false, false], [['sunword'], false, false], [['mixedword'], false, false],
  [['MiXeDword'], false, true], [['mixedword'], false, true], [['latinword'], false, false], [['mergeword'], false, false],
  [['sideword', 'kelvinword'], false, false], [['x+y'], false, false], [['^plain'], true, false], [['word$'], true, false],
  [['(kelvin|mixed)word'], true, false], [['no-such-text'], false, false],
];
/** Terms git reads otherwise than the matcher: git decides them. */
const TO_GIT: readonly [string[], boolean, boolean][] = [[['a.c'], true, false], [['a\u00e9c'], false, false], [['^$'], true, false], [['k*'], true, false]];

let root: string;
let gitDir: string;
let pool: EnginePool;
let store: CommitStore;
let indexes: HistoryIndexes;
let service: HistoryService;

/** Commits one minute apart, so commit_search's newest-first order is git log's. */
let minute = 0;
function commit(work: string, message: string): void {
  const date = `${1_700_000_000 + 60 * minute++} +0000`;
  git(work, 'add', '--all');
  execFileSync('git', ['commit', '--quiet', '-m', message], {
    cwd: work, stdio: 'ignore',
    env: { ...process.env, GIT_AUTHOR_NAME: 'Quarry Test', GIT_AUTHOR_EMAIL: 'test@quarry.invalid', GIT_COMMITTER_NAME: 'Quarry Test', GIT_COMMITTER_EMAIL: 'test@quarry.invalid', GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_CONFIG_GLOBAL: '/dev/null' },
  });
}

before(async () => {
  root = makeTempDir('quarry-content-index');
  const work = initRepo(join(root, 'work'));
  gitDir = join(work, '.git');
  writeFiles(work, { 'a.txt': 'Kelvin: \u212Aelvinword\n' });
  commit(work, 'kelvin sign');
  writeFiles(work, { 'b.txt': '\u017Funword with a long s\n' });
  commit(work, 'long s');
  writeFiles(work, { 'c.txt': 'a\u00e9c\n' });
  commit(work, 'e acute');
  writeFiles(work, { 'd.txt': 'plain MiXeDword\n\nx+y\n' });
  commit(work, 'mixed case, an empty line');
  writeFiles(work, { 'e.txt': Buffer.from('caf\xe9 latinword\n', 'latin1') });
  commit(work, 'latin-1');
  writeFiles(work, { 'd.txt': 'plain\n' });
  commit(work, 'removes the mixed-case word');
  git(work, 'checkout', '--quiet', '-b', 'side');
  writeFiles(work, { 'f.txt': 'sideword\n' });
  commit(work, 'side');
  git(work, 'checkout', '--quiet', 'main');
  writeFiles(work, { 'g.txt': 'mainword\n' });
  commit(work, 'main moves on');
  // An evil merge: a line no parent has, which git log -G still does not show (merges have no diff).
  git(work, 'merge', '--quiet', '--no-ff', '--no-commit', 'side');
  writeFiles(work, { 'h.txt': 'mergeword\n' });
  commit(work, 'merge side');
  pool = createInThreadEnginePool();
  store = openCommitStore(join(root, 'data'));
  indexes = openHistoryIndexes(join(root, 'data'));
  await updateCommitIndex(store, 1, gitDir);
  await updateHistoryIndex(indexes.of(1), gitDir, pool);
  service = createHistoryService(store, pool, () => indexes.of(1));
});

after(async () => {
  await indexes.close();
  await store.close();
  await pool.close();
  removeDir(root);
});

const criteria = (useRegex: boolean, caseSensitive: boolean) => ({ messageTerms: [], authors: [], committers: [], files: [], useRegex, caseSensitive });

function expected(terms: readonly string[], useRegex: boolean, caseSensitive: boolean): string[] {
  return logG(gitDir, terms.map((t) => (useRegex ? `(${t})` : t.replace(ERE_ESCAPE, '\\$&'))).join('|'), { caseSensitive });
}

async function found(repoGitDir: string, terms: string[], useRegex: boolean, caseSensitive: boolean): Promise<string[]> {
  const outcome = await service.searchCommits({ repos: [{ name: 'repo', id: 1, gitDir: repoGitDir }], criteria: criteria(useRegex, caseSensitive), contentTerms: terms, revisions: [], count: 100 });
  return outcome.commits.map((c) => c.commit.oid);
}

test('content terms the index decides list exactly the commits git log -G lists', async () => {
  for (const [terms, useRegex, caseSensitive] of [...DECIDED, ...TO_GIT]) {
    assert.deepEqual(await found(gitDir, terms, useRegex, caseSensitive), expected(terms, useRegex, caseSensitive), `${terms.join(',')} regex=${useRegex} case=${caseSensitive}`);
  }
  assert.deepEqual(await found(gitDir, ['kelvinword'], false, false), [], 'the Kelvin sign is no k to git');
  assert.equal((await found(gitDir, ['x+y'], false, false)).length, 2, 'added, then removed');
});

test('with the index, decided terms run no git: the git directory may be gone; other terms still ask git', async () => {
  const gone = join(root, 'no-such-repo.git');
  for (const [terms, useRegex, caseSensitive] of DECIDED) {
    assert.deepEqual(await found(gone, terms, useRegex, caseSensitive), expected(terms, useRegex, caseSensitive), `${terms.join(',')} regex=${useRegex} case=${caseSensitive}`);
  }
  for (const [terms, useRegex, caseSensitive] of TO_GIT) await assert.rejects(found(gone, terms, useRegex, caseSensitive), /git/i, terms.join(','));
});
