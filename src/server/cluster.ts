/**
 * A node's part in a cluster (`quarry serve --role frontend|search`): membership in PostgreSQL with
 * heartbeats, and per role what changes. A front end's doors search through the fan-out to the
 * search nodes and it syncs nothing; a search node serves the internal search and syncs and indexes
 * only the repositories it owns. `all` (one machine) is none of this.
 */
import { clusterSearchRoute } from '../api/cluster/search-route.js';
import { createFanoutSearch } from '../cluster/fanout-search.js';
import { startMemberView, type MemberView } from '../cluster/member-view.js';
import { createNodeCall } from '../cluster/node-client.js';
import { ownersOf } from '../cluster/ownership.js';
import { errorMessage } from '../errors.js';
import type { Route } from '../http/routes.js';
import type { Services } from '../services.js';
import { openMembership } from '../store/pg/membership.js';
import { listRepos } from '../store/repos.js';

/** A member is dead this long after its last heartbeat; heartbeats come three times per lease. */
export const LEASE_MS = 6_000;
const HEARTBEAT_MS = LEASE_MS / 3;

export interface ClusterNode {
  /** The services the doors use: on a front end, search fans out. */
  readonly doorServices: Services;
  /** The internal search, on search nodes. */
  readonly routes: Route[];
  /** Whether this node indexes the repository: on search nodes, those it owns. */
  owns(repo: string): boolean;
  /** Registers at `address` once the server listens, and keeps the lease. */
  join(address: string): Promise<void>;
  stop(): Promise<void>;
}

export function createClusterNode(services: Services, log: (line: string) => void): ClusterNode {
  const { config } = services;
  const role = config.role;
  let view: MemberView | null = null;
  let self: string | null = null;
  const live = () => view?.live() ?? [];
  const fanout = createFanoutSearch({
    repos: () => listRepos(services.store).map((r) => r.name),
    members: { live },
    replication: config.replication,
    call: createNodeCall(config.clusterSecret ?? ''),
    settings: services.searchSettings,
  });
  return {
    doorServices: role === 'frontend' ? { ...services, search: fanout } : services,
    routes: role === 'search' ? [clusterSearchRoute({
      search: services.search, secret: config.clusterSecret ?? '',
      indexed: (repo) => services.catalog.get(repo) !== undefined,
      log,
    })] : [],
    owns(repo) {
      if (role !== 'search' || self === null) return role !== 'frontend';
      return ownersOf(repo, live().map((m) => m.id), config.replication).includes(self);
    },
    async join(address) {
      if (role === 'all' || config.databaseUrl === null) return;
      self = address;
      const membership = await openMembership(config.databaseUrl, { id: address, role, address }, LEASE_MS);
      const started = await startMemberView(membership, HEARTBEAT_MS, (error) => log(`cluster: heartbeat failed: ${errorMessage(error)}`));
      view = {
        live: started.live,
        async stop() {
          await started.stop();
          await membership.close();
        },
      };
      log(`cluster: joined as ${role} at ${address}; ${started.live().length} live search node(s)`);
    },
    async stop() {
      await view?.stop();
    },
  };
}
