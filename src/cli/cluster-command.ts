/**
 * `quarry cluster status`: the members registered in the shared PostgreSQL, whether their lease is
 * alive and how old their last heartbeat is, and how many repositories each live, active search node owns
 * (as primary and as replica) by the same rendezvous hashing the front ends use.
 */
import { DEFAULT_REPLICATION, ownersOf, ownershipCounts } from '../cluster/ownership.js';
import { databaseUrlFromEnv, parseDatabaseUrl, positiveInt } from '../config.js';
import { openStoreAt } from '../store/open.js';
import { openMembership } from '../store/pg/membership.js';
import { listRepos } from '../store/repos.js';
import { formatTable, parseFlags, usageError, type CliIO, type Command } from './command.js';
import { resolveDataDir } from './data-dir.js';

const USAGE = `usage: quarry cluster status [--database URL] [--replication N] [--json]

Members of the cluster sharing the PostgreSQL at URL (default $QUARRY_DATABASE_URL): role, address,
state (a warming search node builds the share it will own and owns nothing yet), whether the
lease is alive, the age of the last heartbeat, and for live active search nodes the number of
repositories they own as primary and as replica (replication N, default $QUARRY_CLUSTER_REPLICATION
or ${DEFAULT_REPLICATION}, as the nodes were started with).`;

const FLAGS = { database: 'string', replication: 'string', json: 'boolean' } as const;

async function runCluster(args: string[], io: CliIO): Promise<number> {
  const { flags, positionals } = parseFlags(args, FLAGS);
  if (positionals[0] !== 'status' || positionals.length > 1) throw usageError(positionals.length === 0 ? 'cluster: missing subcommand (status)' : `cluster: unknown subcommand "${positionals.join(' ')}" (status)`);
  const url = flags.database !== undefined ? parseDatabaseUrl(flags.database) : databaseUrlFromEnv();
  if (url === null) throw usageError('cluster status: needs the cluster\'s PostgreSQL (--database or QUARRY_DATABASE_URL)');
  const replication = positiveInt('--replication', flags.replication) ?? positiveInt('QUARRY_CLUSTER_REPLICATION', process.env['QUARRY_CLUSTER_REPLICATION']) ?? DEFAULT_REPLICATION;
  const membership = await openMembership(url, null, 0);
  const store = await openStoreAt(resolveDataDir(undefined), url);
  try {
    const members = await membership.members();
    const repos = listRepos(store).map((r) => r.name);
    // A warming member owns nothing yet: the share it builds is still served by the active owners.
    const searchers = members.filter((m) => m.alive && m.role === 'search' && m.state === 'active').map((m) => m.id);
    const counts = ownershipCounts(repos, searchers, replication);
    const underReplicated = repos.filter((repo) => ownersOf(repo, searchers, replication).length < replication).length;
    const rows = members.map((m) => ({ ...m, ...(counts.get(m.id) ?? {}) }));
    if (flags.json === true) {
      io.out(JSON.stringify({ replication, repositories: repos.length, underReplicated, members: rows }, null, 2));
      return 0;
    }
    formatTable([
      ['ADDRESS', 'ROLE', 'STATE', 'ALIVE', 'LEASE AGE', 'PRIMARY', 'REPLICA'],
      ...rows.map((m) => [m.address, m.role, m.state, m.alive ? 'yes' : 'no', `${(m.leaseAgeMs / 1000).toFixed(1)} s`,
        'primary' in m ? String(m.primary) : '-', 'replica' in m ? String(m.replica) : '-']),
    ]).forEach((line) => io.out(line));
    io.out(`${repos.length} repositories, replication ${replication}, ${searchers.length} live search node(s); ${underReplicated} with fewer than ${replication} live owners`);
    return 0;
  } finally {
    await membership.close();
    await store.close();
  }
}

export const clusterCommand: Command = {
  name: 'cluster',
  summary: 'show the cluster\'s members, their leases and what each search node owns',
  usage: USAGE,
  run: runCluster,
};
