/**
 * `quarry repos add|list|remove`: argument handling and output for the repository registry.
 * The registry does the work; this file only opens the store, calls it and prints.
 */

import { addRepository, listRepositories, removeRepository, type RepoContext } from '../repos/registry.js';
import { redactSource } from '../repos/source.js';
import { databaseUrlFromEnv } from '../config.js';
import { openStoreAt } from '../store/open.js';
import { readRunningProgress, type RunProgress } from '../indexer/index-progress.js';
import { readIndexStates, removeIndex, type IndexState } from '../indexer/index-state.js';
import { phaseSummary } from './progress-display.js';
import type { RepoRecord } from '../store/records.js';
import { formatTable, parseFlags, usageError, type CliIO, type Command } from './command.js';
import { DATA_FLAG, resolveDataDir } from './data-dir.js';

const USAGE = `usage: quarry repos <subcommand> [--data DIR]

  quarry repos add NAME SOURCE   register a repository and clone its mirror
  quarry repos list [--json]     show registered repositories
  quarry repos remove NAME       unregister a repository and delete its mirror

NAME looks like github.com/org/repo: segments of letters, digits, ".", "_", "-" joined by "/".
SOURCE is a local git repository (bare or not; a path or file:// URL) or any git URL.
DIR defaults to $QUARRY_DATA, else ./data.`;

const FLAGS = { ...DATA_FLAG, json: 'boolean' } as const;

/** One column of `quarry repos list`. */
export interface RepoColumn {
  readonly header: string;
  value(repo: RepoRecord, index: IndexState | undefined, run: RunProgress | undefined): string;
}

export const REPO_LIST_COLUMNS: readonly RepoColumn[] = [
  { header: 'NAME', value: (repo) => repo.name },
  { header: 'SOURCE', value: (repo) => redactSource(repo.source) },
  { header: 'DEFAULT BRANCH', value: (repo) => repo.defaultBranch },
  {
    header: 'LAST FETCHED',
    value: (repo) => `${repo.lastFetchedAt ?? 'never'}${repo.lastFetchError === undefined ? '' : ' (last fetch failed)'}`,
  },
  { header: 'INDEXED', value: (_, index) => (index ? `${index.commit.slice(0, 12)} at ${index.indexedAt}` : 'not indexed') },
  { header: 'FILES', value: (_, index) => (index ? String(index.files) : '-') },
  { header: 'SKIPPED (BINARY/LARGE)', value: (_, index) => (index ? `${index.skippedBinary}/${index.skippedTooLarge}` : '-') },
  { header: 'SYMBOLS (FILES/UNSUPPORTED/FAILED)', value: (_, index) => symbolsColumn(index) },
  { header: 'INDEXING NOW', value: (_, __, run) => (run ? run.phases.filter((p) => !p.finished).map(phaseSummary).join('; ') || 'finishing' : '-') },
  { header: 'STATUS', value: (repo, index) => repoStatus(repo, index) },
];

function symbolsColumn(index: IndexState | undefined): string {
  if (index?.symbols) return `${index.symbols.files}/${index.symbols.unsupported}/${index.symbols.failed + index.symbols.skipped}`;
  return index?.symbolsPhase === 'pending' ? 'pending' : '-';
}

/** "ok", or what failed and why; a failed fetch or index run leaves the previous index serving. */
export function repoStatus(repo: RepoRecord, index: IndexState | undefined): string {
  const problems = [
    ...(repo.lastFetchError === undefined ? [] : [`fetch failed: ${repo.lastFetchError}`]),
    ...(repo.lastIndexError === undefined ? [] : [`index failed: ${repo.lastIndexError}`]),
    ...(index?.problems ?? []).map((p) => `index ${p}`),
  ];
  if (problems.length > 0) return `failed: ${problems.join('; ')}`;
  return index ? 'ok' : 'not indexed';
}

/** The table `quarry repos list` prints: a header row, then one row per repository. */
export function repoRows(
  repos: readonly RepoRecord[], states: ReadonlyMap<string, IndexState>, runs: ReadonlyMap<string, RunProgress>, columns: readonly RepoColumn[] = REPO_LIST_COLUMNS,
): string[][] {
  return [columns.map((c) => c.header), ...repos.map((repo) => columns.map((c) => c.value(repo, states.get(repo.name), runs.get(repo.name))))];
}

function expectArgs(subcommand: string, args: readonly string[], names: readonly string[]): void {
  if (args.length < names.length) throw usageError(`repos ${subcommand}: missing ${names.slice(args.length).join(' ')}`);
  if (args.length > names.length) throw usageError(`repos ${subcommand}: unexpected argument "${args[names.length] ?? ''}"`);
}

/** The repository list of QUARRY_DATABASE_URL when set (a cluster's, which every node reads), else the data directory's. */
async function withContext<T>(dataFlag: string | undefined, action: (ctx: RepoContext) => Promise<T>): Promise<T> {
  const dataDir = resolveDataDir(dataFlag);
  const store = await openStoreAt(dataDir, databaseUrlFromEnv());
  try {
    const result = await action({ dataDir, store });
    await store.root.committed();
    return result;
  } finally {
    await store.close();
  }
}

async function runRepos(args: string[], io: CliIO): Promise<number> {
  const { flags, positionals } = parseFlags(args, FLAGS);
  const [subcommand, ...rest] = positionals;
  if (subcommand === undefined) throw usageError('repos: missing subcommand (add, list or remove)');
  if (flags.json === true && subcommand !== 'list') throw usageError(`repos ${subcommand}: --json applies only to list`);
  switch (subcommand) {
    case 'add': {
      expectArgs('add', rest, ['NAME', 'SOURCE']);
      const [name = '', source = ''] = rest;
      const repo = await withContext(flags.data, (ctx) => addRepository(ctx, name, source));
      io.out(`added ${repo.name} (default branch ${repo.defaultBranch})`);
      return 0;
    }
    case 'list': {
      expectArgs('list', rest, []);
      return withContext(flags.data, async (ctx) => {
        const repos = listRepositories(ctx);
        const states = await readIndexStates(ctx.dataDir);
        const runs = readRunningProgress(ctx.dataDir);
        if (flags.json === true) {
          io.out(JSON.stringify(repos.map((r) => ({
            ...r, source: redactSource(r.source), status: repoStatus(r, states.get(r.name)), index: states.get(r.name) ?? null,
            indexing: runs.get(r.name)?.phases ?? null,
          })), null, 2));
        }
        else formatTable(repoRows(repos, states, runs)).forEach((line) => io.out(line));
        return 0;
      });
    }
    case 'remove': {
      expectArgs('remove', rest, ['NAME']);
      const [name = ''] = rest;
      const repo = await withContext(flags.data, async (ctx) => {
        const removed = await removeRepository(ctx, name);
        await removeIndex(ctx.dataDir, removed.name, removed.id);
        return removed;
      });
      io.out(`removed ${repo.name}`);
      return 0;
    }
    default:
      throw usageError(`repos: unknown subcommand "${subcommand}" (add, list or remove)`);
  }
}

export const reposCommand: Command = {
  name: 'repos',
  summary: 'add, list and remove the git repositories Quarry serves',
  usage: USAGE,
  run: runRepos,
};
