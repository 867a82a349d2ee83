/**
 * Reads many blobs in order while keeping a window of reads in flight, so `git cat-file --batch`
 * stays busy without holding a whole tree in memory. A null oid yields null without a read.
 */
import type { BlobReader } from './blobs.js';

export async function* readAhead(blobs: BlobReader, oids: readonly (string | null)[], window = 64): AsyncGenerator<Buffer | null> {
  const pending: Promise<Buffer | null>[] = [];
  let next = 0;
  try {
    for (let i = 0; i < oids.length; i++) {
      while (next < oids.length && next < i + window) {
        const oid = oids[next++]!;
        pending.push(oid === null ? Promise.resolve(null) : blobs.read(oid));
      }
      yield await pending.shift()!;
    }
  } finally {
    // A consumer that stops early (an index run failing) closes the reader, which rejects the
    // reads still in flight: nobody awaits them any more, and unhandled they would end the process.
    for (const read of pending) read.catch(() => undefined);
  }
}
