/**
 * A node's part in a cluster (`quarry serve --role frontend|search`): membership in PostgreSQL with
 * heartbeats, and per role what changes. A front end's doors search through the fan-out to the
 * search nodes and it syncs nothing; a search node serves the internal search and syncs and indexes
 * only the repositories it owns. `all` (one machine) is none of this.
 */
import { clusterCallRoute } from '../api/cluster/call-route.js';
import { clusterSearchRoute } from '../api/cluster/search-route.js';
import type { ToolDefinition } from '../api/mcp/tool.js';
import { createFanoutSearch } from '../cluster/fanout-search.js';
import { startMemberView, type MemberView } from '../cluster/member-view.js';
import { createNodeCall, createNodeOperationCall } from '../cluster/node-client.js';
import { createOwnerCall } from '../cluster/owner-call.js';
import { errorMessage } from '../errors.js';
import type { Route } from '../http/routes.js';
import { withIndexedFiles } from '../repos/browser.js';
import type { Services } from '../services.js';
import { createRebalancer, type Rebalancer } from './cluster-rebalance.js';
import { nodeOperations, remoteDiffs, remoteHistory, remoteRepoBrowser, routedTools } from './cluster-operations.js';
import { mcpServices } from './mcp.js';
import { openMembership } from '../store/pg/membership.js';
import { listRepos } from '../store/repos.js';

/** A member is dead this long after its last heartbeat; heartbeats come three times per lease. */
export const LEASE_MS = 6_000;
const HEARTBEAT_MS = LEASE_MS / 3;
/** How long a routed operation (a file read, a navigation or history tool) may take on one node before the next owner is asked. */
const OPERATION_TIMEOUT_MS = 60_000;

export interface ClusterNode {
  /** The services the doors use: on a front end, search fans out and git objects come from the owners. */
  readonly doorServices: Services;
  /** On a front end, the MCP tools with those that read a repository run on its owner; else undefined (the registry's). */
  readonly mcpTools: readonly ToolDefinition[] | undefined;
  /** The internal search, on search nodes. */
  readonly routes: Route[];
  /** Whether this node indexes the repository: on search nodes, those it owns (or, warming, will own). */
  owns(repo: string): boolean;
  /** The sync schedule finished the repository here (fetched, indexed or found current): a warming node counts it. */
  settled(repo: string): void;
  /** Registers at `address` once the server listens, and keeps the lease. */
  join(address: string): Promise<void>;
  stop(): Promise<void>;
}

export function createClusterNode(services: Services, log: (line: string) => void): ClusterNode {
  const { config } = services;
  const role = config.role;
  let view: MemberView | null = null;
  let rebalancer: Rebalancer | null = null;
  let rebalancing: NodeJS.Timeout | undefined;
  // Front ends route to active members only: a warming one is still building what it will own.
  const live = () => (view?.live() ?? []).filter((m) => m.state === 'active');
  const fanout = createFanoutSearch({
    repos: () => listRepos(services.store).map((r) => r.name),
    members: { live },
    replication: config.replication,
    call: createNodeCall(config.clusterSecret ?? ''),
    settings: services.searchSettings,
  });
  const ownerCall = createOwnerCall({ members: { live }, replication: config.replication, call: createNodeOperationCall(config.clusterSecret ?? ''), timeoutMs: OPERATION_TIMEOUT_MS });
  const allRepos = (): string[] => listRepos(services.store).map((r) => r.name);
  const indexed = (repo: string): boolean => services.catalog.get(repo) !== undefined;
  const frontend = role === 'frontend';
  return {
    doorServices: frontend
      ? { ...services, search: fanout, repos: remoteRepoBrowser(services.repos, ownerCall), diffs: remoteDiffs(ownerCall), history: remoteHistory(ownerCall) }
      : services,
    mcpTools: frontend ? routedTools(ownerCall, allRepos) : undefined,
    routes: role === 'search' ? [
      clusterSearchRoute({ search: services.search, secret: config.clusterSecret ?? '', indexed, log }),
      clusterCallRoute({
        secret: config.clusterSecret ?? '', indexed, log,
        operations: nodeOperations({
          repos: services.repos, files: withIndexedFiles(services.repos, services.catalog, services.docs),
          diffs: services.diffs, history: services.history, mcp: mcpServices(services), log,
        }),
      }),
    ] : [],
    owns(repo) {
      if (role !== 'search' || rebalancer === null) return role !== 'frontend';
      return rebalancer.owns(repo);
    },
    settled(repo) {
      rebalancer?.settled(repo);
    },
    async join(address) {
      if (role === 'all' || config.databaseUrl === null) return;
      const membership = await openMembership(config.databaseUrl, { id: address, role, address }, LEASE_MS);
      // The first search node has nobody to take over from: it serves at once. Later ones warm up first.
      const serving = (await membership.members()).filter((m) => m.alive && m.role === 'search' && m.state === 'active' && m.id !== address);
      const initial = role === 'search' && serving.length > 0 ? 'warming' : 'active';
      await membership.setState(initial);
      const started = await startMemberView(membership, HEARTBEAT_MS, (error) => log(`cluster: heartbeat failed: ${errorMessage(error)}`));
      view = {
        live: started.live,
        async stop() {
          await started.stop();
          await membership.close();
        },
      };
      if (role === 'search') {
        const node = createRebalancer({ services, self: address, active: () => live().map((m) => m.id), initial, setState: (state) => membership.setState(state), log });
        rebalancer = node;
        let running: Promise<void> | null = null;
        rebalancing = setInterval(() => {
          running ??= node.tick().finally(() => { running = null; });
        }, HEARTBEAT_MS);
      }
      log(`cluster: joined as ${role} at ${address} (${initial}); ${live().length} active search node(s)`);
    },
    async stop() {
      clearInterval(rebalancing);
      await view?.stop();
    },
  };
}
