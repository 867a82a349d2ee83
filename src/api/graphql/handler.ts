/**
 * POST /.api/graphql as a plain function: body in, status and JSON text out, for a caller its door
 * admitted (auth/authorize.ts). Order: body shape and nesting; text size, parse and cost
 * measurement (linear, cached); Quarry's expansion and search limits; validation (Sourcegraph's
 * order: an invalid query is reported, not cost-refused); Sourcegraph's cost limits; the overlap
 * rule and compilation; execution. Each step runs only once the steps before it have bounded its work.
 */
import type { GraphQLError, GraphQLSchema } from 'graphql';
import { createCompiledQueryCache, DEFAULT_CACHE_ENTRIES, type CompiledQueryCache, type PreparedQuery, type QueryRunner } from './compiled-queries.js';
import { exceedsCost, expansionRefusal, QUERY_COST_EXCEEDED, searchRefusal, type CostLimits } from './cost.js';
import { toGraphQLError } from './errors.js';
import { readGraphQLParams } from './request-body.js';
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
  /** Set when a mutation ran: only its answer waits for its writes to be committed. */
  readonly mutation?: true;
}

export interface GraphQLHandlerOptions {
  /** Read per request so site configuration changes apply without a restart. */
  readonly limits: () => CostLimits;
  readonly cacheEntries?: number;
  /** Called after each executed query (metrics, logs). */
  readonly observe?: (event: { readonly name: string; readonly ms: number; readonly errors: number }) => void;
}

export type GraphQLHandler = ((request: GraphQLRequest, context: RequestContext) => Promise<GraphQLResponse>) & {
  readonly cache: CompiledQueryCache;
  readonly schema: GraphQLSchema;
};

function errorResponse(status: number, message: string): GraphQLResponse {
  return { status, body: JSON.stringify({ errors: [{ message }] }) };
}

function invalidResponse(errors: readonly GraphQLError[]): GraphQLResponse {
  return { status: 200, body: JSON.stringify({ errors: errors.map(toGraphQLError) }) };
}

/** The query ready to run, or the answer refusing it: each check bounds the work of the steps after it. */
function admit(prepared: PreparedQuery, variables: Readonly<Record<string, unknown>>, limits: CostLimits): QueryRunner | GraphQLResponse {
  if (prepared.kind === 'refused') return errorResponse(403, prepared.message);
  if (prepared.kind === 'invalid') return invalidResponse(prepared.errors);
  const { measured } = prepared;
  const overCost = exceedsCost(measured, variables, limits);
  // Quarry's own limits bound validation's work, so they come first; Sourcegraph's message wins.
  const quarryRefusal = expansionRefusal(measured, limits) ?? searchRefusal(measured, limits);
  if (quarryRefusal !== null) return errorResponse(403, overCost ? QUERY_COST_EXCEEDED : quarryRefusal);
  const invalid = prepared.validate();
  if (invalid.length > 0) return invalidResponse(invalid);
  if (overCost) return errorResponse(403, QUERY_COST_EXCEEDED);
  const outcome = prepared.compile();
  if (outcome.kind === 'refused') return errorResponse(403, outcome.message);
  if (outcome.kind === 'invalid') return invalidResponse(outcome.errors);
  return outcome.run;
}

/** The request's context plus the services; not a spread, which would make the signal every request. */
class ResolverContext implements GraphQLContext {
  constructor(private readonly request: RequestContext, readonly services: GraphQLServices) {}

  get principal(): RequestContext['principal'] {
    return this.request.principal;
  }

  /** The request's AbortSignal is made when a resolver first asks (searches do). */
  get signal(): AbortSignal {
    return this.request.signal;
  }
}

export function createGraphQLHandler(services: GraphQLServices, options: GraphQLHandlerOptions): GraphQLHandler {
  const schema = createSchema();
  const cache = createCompiledQueryCache(schema, options.cacheEntries ?? DEFAULT_CACHE_ENTRIES);
  const handle = async (request: GraphQLRequest, context: RequestContext): Promise<GraphQLResponse> => {
    const params = readGraphQLParams(request.body);
    if ('status' in params) return errorResponse(params.status, params.message);
    const prepared = cache.prepare(params.query, params.operationName);
    const admitted = admit(prepared, params.variables, options.limits());
    if (typeof admitted !== 'function') return admitted;
    const mutation = prepared.kind === 'measured' && prepared.measured.shape.operation?.mutation === true;
    const started = performance.now();
    const ctx = new ResolverContext(context, services);
    const result = await admitted(ctx, params.variables);
    const errors = result.errors?.map(toGraphQLError) ?? [];
    options.observe?.({ name: request.name ?? '', ms: performance.now() - started, errors: errors.length });
    // Variable coercion failures have no data at all; graphql-js then omits the key.
    const data = result.data === undefined ? {} : { data: result.data };
    const body = JSON.stringify(errors.length > 0 ? { ...data, errors } : data);
    return mutation ? { status: 200, body, mutation } : { status: 200, body };
  };
  return Object.assign(handle, { cache, schema });
}
