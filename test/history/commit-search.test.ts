import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { openCommitStore, type CommitStore } from '../../src/index/commits/commit-store.js';
import type { CommitCriteria } from '../../src/history/commit-match.js';
import { createHistoryService, type HistoryRepo, type HistoryService } from '../../src/history/history-service.js';
import { git, makeTempDir, removeDir } from '../git/fixtures.js';
import { buildScriptedRepo, gitLogOids, T0 } from './scripted-repo.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';
import type { EnginePool } from '../../src/pool/pool.js';

const DAY = 86400;
const NONE: CommitCriteria = { messageTerms: [], authors: [], committers: [], files: [], useRegex: false };

describe('commit search against git log', () => {
  let tmp: string;
  let work: string;
  let store: CommitStore;
  let history: HistoryService;
  let pool: EnginePool;
  let repo: HistoryRepo;

  before(() => {
    tmp = makeTempDir('quarry-history');
    work = buildScriptedRepo(join(tmp, 'work'));
    store = openCommitStore(join(tmp, 'data'));
    pool = createInThreadEnginePool();
    history = createHistoryService(store, pool);
    repo = { name: 'example.com/demo', id: 7, gitDir: join(work, '.git') };
  });
  after(async () => {
    await pool.close();
    await store.close();
    removeDir(tmp);
  });

  const search = async (criteria: Partial<CommitCriteria>, revisions: string[] = [], contentTerms: string[] = []): Promise<string[]> => {
    const outcome = await history.searchCommits({ repos: [repo], criteria: { ...NONE, ...criteria }, contentTerms, revisions, count: 1000 });
    assert.equal(outcome.totalCount, outcome.commits.length);
    return outcome.commits.map((c) => c.commit.oid).sort();
  };

  test('the first search indexes every branch and tag', async () => {
    assert.deepEqual(await search({}), gitLogOids(work, 'HEAD'));
    assert.equal(store.state(repo.id)?.commitCount, gitLogOids(work, '--all').length);
  });

  test('message terms: case-insensitive substring, OR within the parameter', async () => {
    assert.deepEqual(await search({ messageTerms: ['fix'] }), gitLogOids(work, '-i', '--fixed-strings', '--grep=fix', 'HEAD'));
    assert.deepEqual(await search({ messageTerms: ['FIX', 'tokenizer'] }), gitLogOids(work, '-i', '-F', '--grep=fix', '--grep=tokenizer', 'HEAD'));
    assert.ok((await search({ messageTerms: ['fix'] })).length >= 3);
  });

  test('authors and committers match "Name <email>" partially', async () => {
    assert.deepEqual(await search({ authors: ['ALICE', 'builders.example'] }), gitLogOids(work, '-i', '--author=alice', '--author=builders.example', 'HEAD'));
    assert.deepEqual(await search({ committers: ['alice'] }), gitLogOids(work, '-i', '--committer=alice', 'HEAD'));
    assert.notDeepEqual(await search({ committers: ['alice'] }), await search({ authors: ['alice'] }));
  });

  test('parameter kinds AND together', async () => {
    const got = await search({ messageTerms: ['fix'], authors: ['bob'] });
    assert.deepEqual(got, gitLogOids(work, '-i', '-F', '--grep=fix', '--author=bob', 'HEAD'));
    assert.equal(got.length, 1);
  });

  test('dates bound the committer date inclusively, as --since and --until', async () => {
    const since = T0 + 3 * DAY;
    const until = T0 + 9 * DAY;
    assert.deepEqual(await search({ after: since, before: until }), gitLogOids(work, `--since=@${since}`, `--until=@${until}`, 'HEAD'));
    assert.equal((await search({ after: since, before: until })).length, 7);
  });

  test('files match changed paths; renames count old and new path', async () => {
    const nonMerges = async (files: string[]) => {
      const merges = new Set(gitLogOids(work, '--merges', 'HEAD'));
      return (await search({ files })).filter((oid) => !merges.has(oid));
    };
    for (const path of ['src/parser.ts', 'src/core.ts', 'src/engine.ts', 'assets/logo.bin']) {
      assert.deepEqual(await nonMerges([path]), gitLogOids(work, '--no-merges', '--full-history', 'HEAD', '--', path), path);
    }
    const merge = gitLogOids(work, '--merges', 'HEAD')[0]!;
    assert.ok((await search({ files: ['tokenizer'] })).includes(merge), 'a merge matches the paths it brought to its first parent');
    assert.ok(!(await search({ files: ['README'] })).includes(merge));
  });

  test('revisions: branches, tags, exclusions, globs, ids', async () => {
    assert.deepEqual(await search({}, ['feature']), gitLogOids(work, 'feature'));
    assert.deepEqual(await search({}, ['main', '^v1.0']), gitLogOids(work, 'main', '^v1.0'));
    assert.deepEqual(await search({}, ['*refs/heads/*']), gitLogOids(work, '--branches'));
    assert.deepEqual(await search({}, ['v2.0']), gitLogOids(work, 'v2.0'));
    assert.deepEqual(await search({}, ['HEAD~2']), gitLogOids(work, 'HEAD~2'));
    await assert.rejects(search({}, ['no-such-branch']), (err) => isQuarryError(err, 'REVISION_NOT_FOUND'));
  });

  test('regular expressions, and a bad one is PATTERN_INVALID', async () => {
    assert.deepEqual(await search({ messageTerms: ['^fix(es)?\\b'], useRegex: true }), gitLogOids(work, '-i', '-E', '--grep=^fix(es)?\\b', 'HEAD'));
    await assert.rejects(search({ messageTerms: ['(unclosed'], useRegex: true }), (err) => isQuarryError(err, 'PATTERN_INVALID'));
  });

  test('content terms select commits whose diff adds or removes a matching line (git log -G)', async () => {
    assert.deepEqual(await search({}, [], ['token_limit']), gitLogOids(work, '-i', '-G', 'token_limit', 'HEAD'));
    assert.deepEqual(await search({ authors: ['carol'] }, [], ['trim()']), gitLogOids(work, '-i', '--author=carol', '-G', 'trim\\(\\)', 'HEAD'));
    assert.equal((await search({}, [], ['token_limit'])).length, 2);
  });

  test('count cuts the newest first and reports the total', async () => {
    const outcome = await history.searchCommits({ repos: [repo], criteria: NONE, contentTerms: [], revisions: [], count: 3 });
    assert.equal(outcome.commits.length, 3);
    assert.equal(outcome.totalCount, gitLogOids(work, 'HEAD').length);
    assert.equal(outcome.limitHit, true);
    assert.deepEqual(outcome.commits.map((c) => c.commit.oid), git(work, 'log', '-3', '--format=%H').split('\n'));
  });

  test('an update after new commits adds only those, and a rewritten branch is followed', async () => {
    git(work, 'commit', '--quiet', '--allow-empty', '-m', 'fix: after the first index');
    const outcome = await history.update(repo);
    assert.equal(outcome.mode, 'incremental');
    assert.equal(outcome.added, 1);
    assert.deepEqual(await search({ messageTerms: ['fix'] }), gitLogOids(work, '-i', '-F', '--grep=fix', 'HEAD'));
    git(work, 'reset', '--quiet', '--hard', 'HEAD~3');
    git(work, 'commit', '--quiet', '--allow-empty', '-m', 'rewritten history');
    assert.equal((await history.update(repo)).added, 1);
    assert.deepEqual(await search({}), gitLogOids(work, 'HEAD'));
    assert.equal((await history.update(repo)).mode, 'unchanged');
  });

  test('a known tip that git collected forces a full rebuild with the right commits', async () => {
    git(work, 'commit', '--quiet', '--allow-empty', '-m', 'doomed commit');
    await history.update(repo);
    git(work, 'reset', '--quiet', '--hard', 'HEAD~1');
    git(work, 'reflog', 'expire', '--expire=now', '--all');
    git(work, 'gc', '--quiet', '--prune=now');
    git(work, 'commit', '--quiet', '--allow-empty', '-m', 'replacement commit');
    const outcome = await history.update(repo);
    assert.equal(outcome.mode, 'full');
    assert.equal(outcome.total, gitLogOids(work, '--all').length);
    assert.deepEqual(await search({}), gitLogOids(work, 'HEAD'));
    assert.deepEqual(await search({ messageTerms: ['doomed'] }), []);
  });

  test('contributor repositories count default-branch commits per matching author', async () => {
    const [found] = await history.contributorRepos([repo], ['CAROL'], 1);
    assert.equal(found?.commitCount, gitLogOids(work, '-i', '--author=carol', 'HEAD').length);
    assert.equal(found?.latestDate, Number(git(work, 'log', '-1', '-i', '--author=carol', '--format=%at', 'HEAD')));
    assert.deepEqual(await history.contributorRepos([repo], ['carol'], 99), []);
    assert.deepEqual(await history.contributorRepos([repo], ['nobody'], 1), []);
  });
});
