/**
 * The server's own account of a phase: its /metrics counters (requests by route and status, 429s by
 * reason, stream search outcomes) read at the phase's edges and subtracted. Read-only.
 */
import { createLoadClient } from './http-client.js';

export type Counters = ReadonlyMap<string, number>;

/** Counter series worth showing per phase; latency histograms are left to the client's own figures. */
const SHOWN = /^quarry_(http_requests_total|http_limited_total|stream_searches_total)\{/;

export async function readCounters(origin: string, adminToken: string): Promise<Counters> {
  const client = createLoadClient(origin, 1);
  try {
    const answer = await client.send({ method: 'GET', path: '/metrics', headers: { Authorization: `token ${adminToken}` } }, 10_000);
    if (answer.status !== 200) throw new Error(`/metrics answered ${answer.status}`);
    const counters = new Map<string, number>();
    for (const line of answer.body.toString('utf8').split('\n')) {
      const at = line.lastIndexOf(' ');
      if (SHOWN.test(line) && at > 0) counters.set(line.slice(0, at), Number(line.slice(at + 1)));
    }
    return counters;
  } finally {
    client.close();
  }
}

/** Series that moved between two readings, with how much. */
export function countersDelta(before: Counters, after: Counters): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [series, value] of after) {
    const moved = value - (before.get(series) ?? 0);
    if (moved !== 0) delta[series] = moved;
  }
  return delta;
}

/** Server-side 5xx answers in a delta: any is an unexpected error. */
export function serverErrors(delta: Readonly<Record<string, number>>): number {
  return Object.entries(delta).filter(([series]) => /^quarry_http_requests_total\{.*status="5\d\d"/.test(series)).reduce((sum, [, n]) => sum + n, 0);
}
