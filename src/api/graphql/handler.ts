/**
 * POST /.api/graphql as a plain function: body in, status and JSON text out. Order: scope check,
 * body shape, cached parse/validate/compile, cost limits, graphql-jit execution, error mapping.
 */
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Principal } from '../../auth/principal.js';
import { createCompiledQueryCache, DEFAULT_CACHE_ENTRIES, type CompiledQueryCache } from './compiled-queries.js';
import { exceedsLimits, measureQueryCost, QUERY_COST_EXCEEDED, type CostLimits, type QueryCost } from './cost.js';
import { toGraphQLError } from './errors.js';
import { createSchema } from './schema.js';
import type { GraphQLContext, GraphQLServices, RequestContext } from './services.js';

export interface GraphQLRequest {
  /** Parsed JSON, or the raw body (string or bytes) still to parse. */
  readonly body: unknown;
  /** The URL query string, Sourcegraph's request name (`/.api/graphql?Repositories`). */
  readonly name?: string;
}

export interface GraphQLResponse {
  readonly status: number;
  readonly body: string;
}

export interface GraphQLHandlerOptions {
  /** Read per request so site configuration changes apply without a restart. */
  readonly limits: () => CostLimits;
  /** The auth module's rule, e.g. refusing tokens whose only scope is `mcp`. */
  readonly canUseGraphQL: (principal: Principal) => boolean;
  readonly cacheEntries?: number;
  /** Called after each executed query (metrics, logs). */
  readonly observe?: (event: { readonly name: string; readonly ms: number; readonly errors: number }) => void;
}

export type GraphQLHandler = ((request: GraphQLRequest, context: RequestContext) => Promise<GraphQLResponse>) & {
  readonly cache: CompiledQueryCache;
  readonly schema: GraphQLSchema;
};

const SCOPE_REFUSED = 'the access token scopes do not allow GraphQL API access';

function errorResponse(status: number, message: string): GraphQLResponse {
  return { status, body: JSON.stringify({ errors: [{ message }] }) };
}

interface Params { query: string; variables: Record<string, unknown>; operationName: string | null }

function readParams(body: unknown): Params | GraphQLResponse {
  let parsed = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    try {
      parsed = JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
    } catch {
      return errorResponse(400, 'request body is not valid JSON');
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return errorResponse(400, 'request body must be a JSON object');
  const { query, variables, operationName } = parsed as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') return errorResponse(400, 'no query');
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return errorResponse(400, 'variables must be a JSON object');
  if (operationName != null && typeof operationName !== 'string') return errorResponse(400, 'operationName must be a string');
  return { query, variables: (variables ?? {}) as Record<string, unknown>, operationName: operationName ?? null };
}

/** A document without variables always costs the same, so its cost is measured once. */
const fixedCosts = new WeakMap<DocumentNode, QueryCost>();

function costOf(prepared: { readonly document: DocumentNode }, params: Params): QueryCost {
  const fixed = fixedCosts.get(prepared.document);
  if (fixed) return fixed;
  const cost = measureQueryCost(prepared.document, params.operationName, params.variables);
  const usesVariables = prepared.document.definitions.some((d) => d.kind === 'OperationDefinition' && (d.variableDefinitions?.length ?? 0) > 0);
  if (!usesVariables) fixedCosts.set(prepared.document, cost);
  return cost;
}

export function createGraphQLHandler(services: GraphQLServices, options: GraphQLHandlerOptions): GraphQLHandler {
  const schema = createSchema();
  const cache = createCompiledQueryCache(schema, options.cacheEntries ?? DEFAULT_CACHE_ENTRIES);
  const handle = async (request: GraphQLRequest, context: RequestContext): Promise<GraphQLResponse> => {
    if (!options.canUseGraphQL(context.principal)) return errorResponse(403, SCOPE_REFUSED);
    const params = readParams(request.body);
    if ('status' in params) return params;
    const prepared = cache.prepare(params.query, params.operationName);
    if (!prepared.ok) return { status: 200, body: JSON.stringify({ errors: prepared.errors.map(toGraphQLError) }) };
    if (exceedsLimits(costOf(prepared, params), options.limits())) {
      return errorResponse(403, QUERY_COST_EXCEEDED);
    }
    const started = performance.now();
    const ctx: GraphQLContext = { ...context, services };
    const result = await prepared.compiled.query(undefined, ctx, params.variables);
    const errors = result.errors?.map(toGraphQLError) ?? [];
    options.observe?.({ name: request.name ?? '', ms: performance.now() - started, errors: errors.length });
    // Variable coercion failures have no data at all; graphql-js then omits the key.
    const data = result.data === undefined ? {} : { data: result.data };
    return { status: 200, body: JSON.stringify(errors.length > 0 ? { ...data, errors } : data) };
  };
  return Object.assign(handle, { cache, schema });
}
