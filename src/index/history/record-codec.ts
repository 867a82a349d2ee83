/**
 * How the history index stores a commit's record (its metadata and diff as git printed it):
 * deflated, raw. Shared by the store, which writes and reads records, and by pool workers, which
 * inflate the records a search hands them. Bytes only: no storage, no git.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** Fast deflate: records are read back on every search that confirms a candidate. */
const DEFLATE_LEVEL = 6;

export function deflateRecord(record: string): Buffer {
  return deflateRawSync(Buffer.from(record, 'utf8'), { level: DEFLATE_LEVEL });
}

/** The record's UTF-8 bytes (valid UTF-8: the record was a string). */
export function inflateRecordBytes(deflated: Uint8Array): Buffer {
  return inflateRawSync(deflated);
}

export function inflateRecord(deflated: Uint8Array): string {
  return inflateRecordBytes(deflated).toString('utf8');
}
