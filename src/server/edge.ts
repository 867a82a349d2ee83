/**
 * The HTTP edge's policies as the server mounts them: per-caller limits read from the site
 * configuration on every request, the private-mode guard and the /metrics check (both decided in
 * auth/policy.ts). No request handling here: the server in http/ applies them.
 */
import type { Authenticator } from '../auth/authenticate.js';
import { createCallerKeys } from '../auth/caller-key.js';
import { createMetricsAccess, privateModeRefusal } from '../auth/policy.js';
import { createCallerLimiter, type CallerLimitSettings } from '../http/caller-limits.js';
import type { ScrapeRefusal } from '../http/ops.js';
import type { HttpRequest, RequestHead } from '../http/request.js';
import type { EdgeLimits, EdgeRefusal } from '../http/server.js';
import type { SiteConfiguration } from '../store/site-config.js';

export interface EdgeDeps {
  readonly authenticate: Authenticator;
  /** The cached site configuration (byGeneration): cheap to read per request. */
  readonly settings: () => SiteConfiguration;
  /** QUARRY_METRICS_TOKEN, or null. */
  readonly metricsToken: string | null;
}

export interface EdgePolicies {
  readonly limits: EdgeLimits;
  readonly guard: (request: RequestHead) => EdgeRefusal | null;
  readonly authorizeScrape: (request: HttpRequest) => ScrapeRefusal | null;
}

export function createEdgePolicies(deps: EdgeDeps): EdgePolicies {
  // The settings object stays the same until the configuration changes: map it once per change.
  let mapped: { readonly from: SiteConfiguration; readonly to: CallerLimitSettings } | null = null;
  const limitSettings = (): CallerLimitSettings => {
    const current = deps.settings();
    if (mapped?.from !== current) {
      const limits = current.rateLimits;
      mapped = {
        from: current,
        to: {
          requestsPerMinute: limits.requestsPerMinute,
          anonymousRequestsPerMinute: limits.anonymousRequestsPerMinute,
          concurrentRequests: limits.concurrentRequests,
          queuedRequests: limits.queuedRequests,
          queueTimeoutMs: limits.queueTimeoutSeconds * 1000,
        },
      };
    }
    return mapped.to;
  };
  const metricsAccess = createMetricsAccess(deps.authenticate, deps.metricsToken);
  return {
    limits: { limiter: createCallerLimiter(limitSettings), callerOf: createCallerKeys(deps.authenticate) },
    guard(request) {
      const failure = privateModeRefusal(request, () => deps.settings().auth);
      return failure === null ? null : { status: failure.status, body: `${failure.message}\n`, headers: { 'Content-Type': 'text/plain; charset=utf-8', Vary: 'Authorization' } };
    },
    authorizeScrape: (request) => metricsAccess(request.headers, request.query),
  };
}
