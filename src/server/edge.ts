/**
 * The HTTP edge's policies as the server mounts them: per-caller limits read from the site
 * configuration on every request, the private-mode guard and the /metrics check (both decided in
 * auth/authorize.ts). No request handling here: the server in http/ applies them.
 */
import { authorize, privateModeRefusal } from '../auth/authorize.js';
import { createCallerKeys } from '../auth/caller-key.js';
import type { Authentication } from '../auth/principal.js';
import { createCallerLimiter, type CallerLimitSettings } from '../http/caller-limits.js';
import type { HttpRequest, RequestHead } from '../http/request.js';
import type { EdgeLimits, EdgeRefusal } from '../http/server.js';
import type { SiteConfiguration } from '../store/site-config.js';

export interface EdgeDeps {
  /** The cached site configuration (byGeneration): cheap to read per request. */
  readonly settings: () => SiteConfiguration;
}

export interface EdgePolicies {
  readonly limits: EdgeLimits<Authentication>;
  readonly guard: (request: RequestHead<Authentication>) => EdgeRefusal | null;
  readonly authorizeScrape: (request: HttpRequest<Authentication>) => EdgeRefusal | null;
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
  const site = () => deps.settings().auth;
  return {
    limits: { limiter: createCallerLimiter(limitSettings), callerOf: createCallerKeys() },
    guard(request) {
      const refused = privateModeRefusal(request, site);
      return refused !== null && wantsPage(request) ? signInFirst(request) : refused;
    },
    authorizeScrape(request) {
      const decision = authorize(request.auth, 'metrics', site);
      return decision.ok ? null : decision.answer;
    },
  };
}

/** A browser asking for a page (not an API client): it gets the sign-in page, then comes back here. */
function wantsPage(request: RequestHead<Authentication>): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && !request.path.startsWith('/.api/') && (request.headers['accept'] ?? '').includes('text/html');
}

function signInFirst(request: RequestHead<Authentication>): EdgeRefusal {
  const query = request.query.toString();
  const back = `${request.path}${query === '' ? '' : `?${query}`}`;
  return { status: 303, body: '', headers: { Location: `/sign-in?return_to=${encodeURIComponent(back)}`, 'Cache-Control': 'no-store' } };
}
