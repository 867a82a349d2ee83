/**
 * Who a request comes from, for the per-caller limits: an access token, by its id (every spelling
 * of one token shares one budget), a signed-in browser by its user, or else the client's address (IPv6 by its /64), which also
 * takes every credential that does not authenticate: made-up or revoked tokens buy no fresh budgets.
 */
import type { Authentication } from './principal.js';

export interface CallerKey {
  readonly key: string;
  /** Keyed by address: anonymous, or a credential that did not authenticate. */
  readonly anonymous: boolean;
}

export interface CallerRequest {
  readonly remoteAddress: string;
  /** The request's authentication, resolved on first read and then the one its door reads too. */
  readonly auth: Authentication;
}

/**
 * Reads the request's own authentication, which its door reads anyway and the authenticator
 * answers from memory for a credential it saw before: knowing a caller costs no second lookup.
 */
export function createCallerKeys(): (request: CallerRequest) => CallerKey {
  return (request) => {
    const auth = request.auth;
    if (auth.ok && (auth.via === 'header' || auth.via === 'query') && auth.principal.tokenId !== null) return { key: `token:${auth.principal.tokenId}`, anonymous: false };
    // A signed-in browser (the web app): one budget per person, however many tabs and sessions.
    if (auth.ok && auth.via === 'session' && auth.principal.userId !== null) return { key: `user:${auth.principal.userId}`, anonymous: false };
    return { key: `address:${addressKey(request.remoteAddress)}`, anonymous: true };
  };
}

/** IPv4 as dotted quad (also when IPv4-mapped); IPv6 by its /64, the block one host usually holds. */
export function addressKey(address: string): string {
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (dotted) return dotted[1]!;
  const groups = ipv6Groups(address);
  if (groups === null) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

function ipv6Groups(text: string): number[] | null {
  const halves = text.replace(/%.*$/, '').split('::');
  if (halves.length > 2) return null;
  const split = (part: string | undefined): string[] => (part === undefined || part === '' ? [] : part.split(':'));
  const head = split(halves[0]);
  const tail = split(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...new Array<string>(missing).fill('0'), ...tail].map((g) => (/^[0-9a-fA-F]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return groups.some(Number.isNaN) ? null : groups;
}
