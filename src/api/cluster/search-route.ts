/**
 * A search node's internal search (POST /.internal/cluster/search), called by front ends with the
 * cluster secret. It searches only the repositories the front end sends, which are those the
 * caller may read (the caller's permissions, resolved against the shared store), under the
 * caller's deadline, and says which of them it holds no index of. Query errors answer 400 with
 * their code; the front end passes them on.
 */
import { clusterSecretChecker } from '../../auth/cluster-secret.js';
import type { ClusterSearchAnswer, ClusterSearchRequest } from '../../cluster/wire.js';
import { CLUSTER_SEARCH_PATH, CLUSTER_SECRET_HEADER } from '../../cluster/wire.js';
import { errorMessage, isQuarryError, publicMessage } from '../../errors.js';
import type { Route } from '../../http/routes.js';
import type { SearchService } from '../../search/contracts.js';

export interface ClusterSearchDeps {
  readonly search: SearchService;
  readonly secret: string;
  /** Whether this node has an index of the repository. */
  readonly indexed: (repo: string) => boolean;
  /** Where failures that are not the query's go (the front end hears only their public message). */
  readonly log: (line: string) => void;
}

const PATTERN_TYPES = new Set(['keyword', 'standard', 'literal', 'regexp']);
const MATCHERS = new Set(['auto', 'hyperscan', 'js']);

export function clusterSearchRoute(deps: ClusterSearchDeps): Route {
  const secretMatches = clusterSecretChecker(deps.secret);
  return {
    method: 'POST',
    path: CLUSTER_SEARCH_PATH,
    // The front end already held the caller to its limits; the node must not count them twice.
    unlimited: true,
    async handler(request, reply) {
      if (!secretMatches(request.headers[CLUSTER_SECRET_HEADER])) return reply.json(401, { code: 'FORBIDDEN', message: 'cluster secret required' });
      const body = parseBody(request.body);
      if (typeof body === 'string') return reply.json(400, { code: 'INVALID_ARGUMENT', message: body });
      const asked = new Set(body.repos);
      try {
        const response = await deps.search.search({
          query: body.query, canRead: (repo) => asked.has(repo), deadline: body.deadline, signal: request.signal,
          ...(body.patternType !== undefined ? { patternType: body.patternType } : {}),
          ...(body.defaultLimit !== undefined ? { defaultLimit: body.defaultLimit } : {}),
          ...(body.matcher !== undefined ? { matcher: body.matcher } : {}),
        });
        const answer: ClusterSearchAnswer = { response, missing: body.repos.filter((repo) => !deps.indexed(repo)) };
        reply.json(200, answer);
      } catch (error) {
        if (request.signal.aborted) return;
        const status = isQuarryError(error) && error.code !== 'INTERNAL' ? 400 : 500;
        if (status === 500) deps.log(`cluster search failed: ${errorMessage(error)}`);
        reply.json(status, { code: isQuarryError(error) ? error.code : 'INTERNAL', message: publicMessage(error) });
      }
    },
  };
}

function parseBody(bytes: Uint8Array): ClusterSearchRequest | string {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return 'the body must be JSON';
  }
  const body = value as Partial<Record<keyof ClusterSearchRequest, unknown>>;
  if (typeof value !== 'object' || value === null) return 'the body must be a JSON object';
  if (typeof body.query !== 'string') return 'query must be a string';
  if (!Array.isArray(body.repos) || !body.repos.every((r) => typeof r === 'string')) return 'repos must be a list of repository names';
  if (typeof body.deadline !== 'number' || !Number.isFinite(body.deadline)) return 'deadline must be epoch milliseconds';
  if (body.patternType !== undefined && !PATTERN_TYPES.has(body.patternType as string)) return 'patternType is not a pattern type';
  if (body.matcher !== undefined && !MATCHERS.has(body.matcher as string)) return 'matcher must be auto, hyperscan or js';
  if (body.defaultLimit !== undefined && !(Number.isInteger(body.defaultLimit) && (body.defaultLimit as number) > 0)) return 'defaultLimit must be a positive integer';
  return body as ClusterSearchRequest;
}
