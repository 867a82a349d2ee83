/**
 * A SegmentSource over documents held in memory: unindexed revisions and tests. It has no
 * trigram index, so every document is a candidate and the verifier sees them all.
 */
import { docFlags } from './format.js';
import type { SegmentSource } from './store.js';

export interface MemoryDocs {
  readonly paths: readonly string[];
  /** All contents back to back; document i ends at ends[i]. */
  readonly data: Uint8Array;
  readonly ends: Uint32Array;
}

export function packMemoryDocs(docs: readonly { path: string; content: Uint8Array }[]): MemoryDocs {
  const total = docs.reduce((n, d) => n + d.content.length, 0);
  const data = new Uint8Array(total);
  const ends = new Uint32Array(docs.length);
  let pos = 0;
  docs.forEach((d, i) => {
    data.set(d.content, pos);
    pos += d.content.length;
    ends[i] = pos;
  });
  return { paths: docs.map((d) => d.path), data, ends };
}

export function createMemorySource(docs: MemoryDocs): SegmentSource {
  const bytes = Buffer.from(docs.paths.join('\n'));
  const starts = new Uint32Array(docs.paths.length + 1);
  let offset = 0;
  docs.paths.forEach((p, i) => {
    starts[i] = offset;
    offset += Buffer.byteLength(p) + 1;
  });
  starts[docs.paths.length] = offset;
  const contentOf = (doc: number): Uint8Array => docs.data.subarray(doc === 0 ? 0 : docs.ends[doc - 1]!, docs.ends[doc]!);
  const flags = docs.paths.map((_, i) => docFlags(contentOf(i)));
  return {
    docCount: docs.paths.length,
    pathIndex: { bytes, starts },
    path: (doc) => docs.paths[doc]!,
    flags: (doc) => flags[doc]!,
    content: contentOf,
    postings: () => null,
  };
}
