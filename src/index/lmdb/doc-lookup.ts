/**
 * Reads one file of a repository at its indexed commit straight from the live index segments, so a
 * file read needs no git process. Knows nothing of skipped files or other commits: callers fall back.
 */
import { includesSorted } from '../doc-set.js';
import type { Manifest, SegmentRef } from '../manifest.js';
import { openSegmentReader, type SegmentReader } from './segment-reader.js';

export interface DocLookup {
  /** A copy of the live document's bytes at `path` in the manifest's segments, or null when none has it. */
  read(manifest: Manifest, path: string): Buffer | null;
  /** The live document at `path`: the reader of its segment and its doc id, or null. Valid until the next call. */
  locate(manifest: Manifest, path: string): { readonly reader: SegmentReader; readonly doc: number } | null;
  /** The manifest's segments, newest first, with a test for their replaced docs. Valid until the next call. */
  segments(manifest: Manifest): readonly LiveSegment[];
  /** Segments held open now (for tests and stats). */
  openSegments(): readonly string[];
  close(): Promise<void>;
}

export interface LiveSegment {
  readonly reader: SegmentReader;
  isDeleted(doc: number): boolean;
}

interface OpenSegment {
  readonly reader: SegmentReader;
  /** Built on first lookup: one pass over the path column per segment lifetime. */
  docs: Map<string, number> | null;
}

const DEFAULT_MAX_OPEN_SEGMENTS = 64;

export function createDocLookup(segmentDir: (id: string) => string, maxOpenSegments = DEFAULT_MAX_OPEN_SEGMENTS): DocLookup {
  // Insertion order is recency order: a hit is re-inserted, the first key is the eviction victim.
  const open = new Map<string, OpenSegment>();
  // Segment ids are new on every index run; what a repository served last tells which to close.
  const lastSeen = new Map<string, readonly string[]>();

  const drop = (id: string): void => {
    const segment = open.get(id);
    if (!segment) return;
    open.delete(id);
    // Reads are synchronous, so no read can be using the reader while it closes.
    void segment.reader.close();
  };

  const retireReplaced = (manifest: Manifest): void => {
    const ids = manifest.segments.map((s) => s.id);
    const previous = lastSeen.get(manifest.repo);
    lastSeen.set(manifest.repo, ids);
    if (!previous || (previous.length === ids.length && previous.every((id, i) => id === ids[i]))) return;
    for (const id of previous) if (!ids.includes(id)) drop(id);
  };

  const segmentOf = (id: string): OpenSegment => {
    let segment = open.get(id);
    if (segment) {
      open.delete(id);
    } else {
      segment = { reader: openSegmentReader(segmentDir(id)), docs: null };
      if (open.size >= maxOpenSegments) drop(open.keys().next().value as string);
    }
    open.set(id, segment);
    return segment;
  };

  const locate = (manifest: Manifest, path: string): { reader: SegmentReader; doc: number } | null => {
    retireReplaced(manifest);
    // Newest first: an incremental run's segment holds the current version of the paths it replaced.
    for (let i = manifest.segments.length - 1; i >= 0; i--) {
      const ref = manifest.segments[i]!;
      const segment = segmentOf(ref.id);
      segment.docs ??= pathMap(segment.reader);
      const doc = segment.docs.get(path);
      if (doc !== undefined && !isDeleted(ref, doc)) return { reader: segment.reader, doc };
    }
    return null;
  };

  return {
    read(manifest, path) {
      const found = locate(manifest, path);
      // The reader's buffer is reused by its next read; the caller keeps these bytes.
      return found ? Buffer.from(found.reader.content(found.doc)) : null;
    },
    locate,
    segments(manifest) {
      retireReplaced(manifest);
      return manifest.segments.map((ref) => ({ reader: segmentOf(ref.id).reader, isDeleted: (doc: number) => isDeleted(ref, doc) })).reverse();
    },
    openSegments: () => [...open.keys()],
    async close() {
      const readers = [...open.values()].map((s) => s.reader.close());
      open.clear();
      lastSeen.clear();
      await Promise.all(readers);
    },
  };
}

function pathMap(reader: SegmentReader): Map<string, number> {
  const docs = new Map<string, number>();
  for (let doc = 0; doc < reader.docCount; doc++) docs.set(reader.path(doc), doc);
  return docs;
}

/** `deleted` is ascending (manifest.ts), so a binary search. */
function isDeleted(ref: SegmentRef, doc: number): boolean {
  return includesSorted(ref.deleted, doc);
}
