/**
 * The index seams: what the shard searcher reads (SegmentSource) and what a segment's document
 * columns hold. Implementations: lmdb/segment-reader.ts (the index), memory-source.ts (unindexed
 * revisions and tests). Nothing here touches disk.
 */
import type { BlockMapParams } from './block-map.js';

export interface SegmentDocs {
  readonly paths: readonly string[];
  /** docCount × 20 bytes of raw git blob oids. */
  readonly blobs: Uint8Array;
  readonly sizes: Uint32Array;
  readonly flags: Uint8Array;
}

/** A set of documents with ids 0..docCount-1, searched by one shard task. */
export interface SegmentSource {
  readonly docCount: number;
  /** All paths joined by "\n" as UTF-8, and the byte offset where each path starts (docCount + 1 entries). */
  readonly pathIndex: { readonly bytes: Uint8Array; readonly starts: Uint32Array };
  path(doc: number): string;
  flags(doc: number): number;
  /** The document's bytes; valid only until the next content() call. */
  content(doc: number): Uint8Array;
  /**
   * Ascending doc ids in [lo, hi) whose content contains the trigram, or null when this source has
   * no trigram index (every document is then a candidate).
   */
  postings(trigram: number, lo: number, hi: number): Uint32Array | null;
  /**
   * How the trigram's list is stored, to order an intersection: its byte length, and whether it is
   * a bitset (keepWithTrigram then filters without decoding); null when no document holds it.
   * Absent: every list is decoded.
   */
  postingShape?(trigram: number): { readonly bytes: number; readonly bitset: boolean } | null;
  /** The ids of `ids` (ascending) whose documents hold the trigram; null when its list is not a bitset. */
  keepWithTrigram?(trigram: number, ids: Uint32Array): Uint32Array | null;
  /** The geometry of this source's block maps; absent when it has none. */
  readonly blockMapParams?: BlockMapParams;
  /** The doc's block bitmaps (block-map.ts), or null when it has none; valid only until the next read. */
  blockMap?(doc: number): Uint8Array | null;
}
