/**
 * A search node's routed operations (POST /.internal/cluster/call), called by front ends with the
 * cluster secret: file reads, navigation and history on the repositories it owns, from a table the
 * composition root fills. The node answers `missing` for asked-for repositories it holds no index
 * of (the front end then asks another owner) and runs nothing for them. Caller-facing errors
 * (unknown revision, bad argument) answer 400 with their code and details, which the front end
 * raises again; any other failure is a 500 the front end answers by asking a replica.
 */
import { clusterSecretChecker } from '../../auth/cluster-secret.js';
import { CLUSTER_CALL_PATH, CLUSTER_SECRET_HEADER, type ClusterCallAnswer, type ClusterCallRequest } from '../../cluster/wire.js';
import { errorMessage, isCallerFacing, publicMessage } from '../../errors.js';
import type { Route } from '../../http/routes.js';

/** One operation: its arguments as sent, the caller's readable repositories (all asked-for ones when none were sent). */
export type ClusterOperation = (args: readonly unknown[], readable: ReadonlySet<string>, signal: AbortSignal) => Promise<unknown>;

export interface ClusterCallDeps {
  readonly operations: ReadonlyMap<string, ClusterOperation>;
  readonly secret: string;
  /** Whether this node has an index of the repository. */
  readonly indexed: (repo: string) => boolean;
  readonly log: (line: string) => void;
}

export function clusterCallRoute(deps: ClusterCallDeps): Route {
  const secretMatches = clusterSecretChecker(deps.secret);
  return {
    method: 'POST',
    path: CLUSTER_CALL_PATH,
    // The front end already held the caller to its limits.
    unlimited: true,
    async handler(request, reply) {
      if (!secretMatches(request.headers[CLUSTER_SECRET_HEADER])) return reply.json(401, { code: 'FORBIDDEN', message: 'cluster secret required' });
      const body = parseBody(request.body);
      if (typeof body === 'string') return reply.json(400, { code: 'INVALID_ARGUMENT', message: body });
      const operation = deps.operations.get(body.op);
      if (operation === undefined) return reply.json(400, { code: 'INVALID_ARGUMENT', message: `unknown operation ${body.op}` });
      const missing = body.repos.filter((repo) => !deps.indexed(repo));
      if (missing.length > 0) return reply.json(200, { missing } satisfies ClusterCallAnswer);
      try {
        const value = await operation(body.args, new Set(body.readable ?? body.repos), request.signal);
        reply.json(200, { value, missing } satisfies ClusterCallAnswer);
      } catch (error) {
        if (request.signal.aborted) return;
        if (isCallerFacing(error)) return reply.json(400, { code: error.code, message: error.message, details: error.details });
        deps.log(`cluster call ${body.op} failed: ${errorMessage(error)}`);
        reply.json(500, { code: 'INTERNAL', message: publicMessage(error) });
      }
    },
  };
}

function parseBody(bytes: Uint8Array): ClusterCallRequest | string {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return 'the body must be JSON';
  }
  if (typeof value !== 'object' || value === null) return 'the body must be a JSON object';
  const body = value as Partial<Record<keyof ClusterCallRequest, unknown>>;
  const names = (list: unknown): boolean => Array.isArray(list) && list.every((r) => typeof r === 'string');
  if (typeof body.op !== 'string') return 'op must be a string';
  if (!Array.isArray(body.args)) return 'args must be a list';
  if (!names(body.repos)) return 'repos must be a list of repository names';
  if (body.readable !== undefined && !names(body.readable)) return 'readable must be a list of repository names';
  if (typeof body.deadline !== 'number' || !Number.isFinite(body.deadline)) return 'deadline must be epoch milliseconds';
  return body as ClusterCallRequest;
}
