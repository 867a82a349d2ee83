/**
 * What the edge's policies cost each request: finding the caller (a known token's fingerprint, or
 * an address), admit and release, and the private-mode guard (which authenticates the request),
 * against a real store, beside an empty loop.
 * Run: node dist/bench/edge-limits.bench.js
 */
import { createAuthenticator } from '../src/auth/authenticate.js';
import type { Admission } from '../src/http/caller-limits.js';
import type { Authentication } from '../src/auth/principal.js';
import type { RequestHead } from '../src/http/request.js';
import { createEdgePolicies } from '../src/server/edge.js';
import { byGeneration } from '../src/store/generation.js';
import { getSiteConfig, updateSiteConfig } from '../src/store/site-config.js';
import { createAccessToken } from '../src/store/tokens.js';
import { createUser } from '../src/store/users.js';
import { openTempStore } from '../test/store/temp-store.js';
import { measure } from './timing.js';

/** Requests per timed call: one call's own overhead stays far below the figure measured. */
const BATCH = 1000;

async function main(): Promise<void> {
  const temp = openTempStore();
  try {
    const user = createUser(temp.store, { username: 'agent' });
    const { token } = createAccessToken(temp.store, { userId: user.id, creatorId: user.id, scopes: ['user:all'], note: 'bench' });
    // Budgets too large to run out during the run, so every request takes the whole path: bucket, slot, release.
    updateSiteConfig(temp.store, 0, '{"rateLimits.requestsPerMinute": 1000000000, "rateLimits.anonymousRequestsPerMinute": 1000000000}');
    const settings = byGeneration(temp.store, () => getSiteConfig(temp.store).effective);
    const { limits, guard } = createEdgePolicies({ settings });
    const authenticate = createAuthenticator(temp.store);
    const signal = new AbortController().signal;
    // Every call stands for a new request, so each one that reads its authentication pays for it, as the server's would.
    const head = (headers: Record<string, string>): RequestHead<Authentication> => ({
      method: 'POST', path: '/.api/graphql', query: new URLSearchParams(), headers, signal, remoteAddress: '127.0.0.1', owner: '',
      get auth() {
        return authenticate(this);
      },
    });
    const withToken = head({ authorization: `token ${token}` });
    const anonymous = head({});
    const admitAndRelease = (caller: { key: string; anonymous: boolean }): void => {
      const admission = limits.limiter.admit(caller, { signal }) as Admission;
      if (admission.ok) admission.release();
    };
    const wholeEdge = (request: RequestHead<Authentication>): void => {
      const admission = limits.limiter.admit(limits.callerOf(request), { signal }) as Admission;
      sink += guard(request) === null ? 1 : 2;
      if (admission.ok) admission.release();
    };
    let sink = 0;
    const cases: [string, () => void][] = [
      ['empty loop', () => void (sink += 1)],
      ['caller of a known token (fingerprint lookup)', () => void (sink += limits.callerOf(withToken).key.length)],
      ['caller of an anonymous request (address)', () => void (sink += limits.callerOf(anonymous).key.length)],
      ['admit + release (settings read per request)', () => admitAndRelease({ key: 'token:1', anonymous: false })],
      ['guard, token', () => void (sink += guard(withToken) === null ? 1 : 2)],
      ['guard, anonymous (reads auth.public)', () => void (sink += guard(anonymous) === null ? 1 : 2)],
      ['whole edge, token: caller + admit + guard + release', () => wholeEdge(withToken)],
      ['whole edge, anonymous: caller + admit + guard + release', () => wholeEdge(anonymous)],
    ];
    console.log(`| per request | mean µs | median µs |`);
    console.log('| --- | ---: | ---: |');
    for (const [name, once] of cases) {
      const timing = await measure(name, () => {
        for (let i = 0; i < BATCH; i++) once();
        return {};
      }, { expectedMs: 1, warmupIterations: 50, async: false });
      console.log(`| ${name} | ${((timing.meanMs * 1000) / BATCH).toFixed(3)} | ${((timing.medianMs * 1000) / BATCH).toFixed(3)} |`);
    }
    if (sink < 0) console.log(sink);
  } finally {
    await temp.dispose();
  }
}

await main();
