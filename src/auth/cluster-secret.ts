/**
 * The cluster secret (QUARRY_CLUSTER_SECRET) that front ends present to search nodes: compared in
 * constant time, over SHA-256 digests so neither its content nor its length leaks.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Whether `presented` is the secret; false for a missing one. */
export function clusterSecretChecker(secret: string): (presented: string | undefined) => boolean {
  const expected = createHash('sha256').update(secret).digest();
  return (presented) => presented !== undefined && timingSafeEqual(createHash('sha256').update(presented).digest(), expected);
}
