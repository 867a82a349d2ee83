/** Writes a real segment (LMDB files, seal) from a path → content map, as an index run would. */
import { encodeBlockMaps, forEachBlockMap } from '../../src/index/block-map.js';
import { mergeRuns } from '../../src/index/build/merge.js';
import { buildRun } from '../../src/index/build/run.js';
import { TrigramExtractor } from '../../src/index/build/trigrams.js';
import { DOC_FLAG_UTF8 } from '../../src/index/format.js';
import { createSegmentWriter } from '../../src/index/lmdb/segment-writer.js';
import { packTrigram } from '../../src/model/trigram.js';

const tables = { extractor: new TrigramExtractor(), counts: new Uint32Array(1 << 24) };

export const tri = (s: string): number => packTrigram(s.charCodeAt(0), s.charCodeAt(1), s.charCodeAt(2));

export async function writeSegment(dir: string, files: Record<string, string>): Promise<void> {
  const writer = createSegmentWriter(dir);
  const contents = Object.values(files).map((c) => Buffer.from(c));
  for (let i = 0; i < contents.length; i++) await writer.addDocument(i, contents[i]!);
  forEachBlockMap(encodeBlockMaps(0, contents), (doc, map) => writer.addBlockMap(doc, map));
  await writer.finish({
    paths: Object.keys(files),
    blobs: Buffer.alloc(20 * contents.length, 0xab),
    sizes: Uint32Array.from(contents.map((c) => c.length)),
    flags: Uint8Array.from(contents.map(() => DOC_FLAG_UTF8)),
  }, mergeRuns([buildRun(tables, 0, contents)]));
}
