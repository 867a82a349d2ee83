/**
 * The principals of the permission matrix, one row each: who they are, which site mode they are
 * tested under, whether they may read the restricted repository, and whom they must answer like.
 */

export interface Principal {
  /** As the cell names show it. */
  readonly name: string;
  /** The credential on the main server (an account name in Instance.credentials, or 'anonymous'). */
  readonly account: string;
  /** `auth.public` while this principal's cells run. */
  readonly site: 'private' | 'public';
  /** May read the restricted repository. */
  readonly reads: boolean;
  /** Who the principal is on the reference server, which never had the restricted repository. */
  readonly referenceAccount: string;
  /** For sudo: the principal whose answers it must give, every one of them. */
  readonly actsAs?: string;
}

export const PRINCIPALS: readonly Principal[] = [
  { name: 'anonymous (private site)', account: 'anonymous', site: 'private', reads: false, referenceAccount: 'anonymous' },
  { name: 'anonymous (auth.public)', account: 'anonymous', site: 'public', reads: false, referenceAccount: 'anonymous' },
  { name: 'bob (no access)', account: 'bob', site: 'private', reads: false, referenceAccount: 'bob' },
  { name: 'alice (user grant)', account: 'alice', site: 'private', reads: true, referenceAccount: 'admin' },
  { name: 'carol (auditors role)', account: 'carol', site: 'private', reads: true, referenceAccount: 'admin' },
  { name: 'admin', account: 'admin', site: 'private', reads: true, referenceAccount: 'admin' },
  { name: 'sudo as bob', account: 'sudo-bob', site: 'private', reads: false, referenceAccount: 'bob', actsAs: 'bob (no access)' },
  { name: 'sudo as alice', account: 'sudo-alice', site: 'private', reads: true, referenceAccount: 'admin', actsAs: 'alice (user grant)' },
];

export const ADMIN = PRINCIPALS.find((p) => p.account === 'admin')!;

export function principalNamed(name: string): Principal {
  const found = PRINCIPALS.find((p) => p.name === name);
  if (found === undefined) throw new Error(`no principal named ${name}`);
  return found;
}
