/**
 * The SymbolIndex navigation reads, over the catalog and the live index segments: per-file symbol
 * tables and the per-segment name indexes. Newest segment wins; replaced docs are skipped. Parsing
 * of files outside the index runs in the worker pool, never here.
 */
import { join } from 'node:path';
import { segmentsDir, type Catalog } from '../index/lmdb/catalog.js';
import { createDocLookup } from '../index/lmdb/doc-lookup.js';
import type { SegmentReader } from '../index/lmdb/segment-reader.js';
import type { FileSymbols, SymbolFileRef, SymbolIndex } from '../model/symbols.js';
import type { WorkerPool } from '../pool/piscina-pool.js';
import { decodeFileSymbols, decodeNamedReferences } from '../symbols/codec.js';

export interface SymbolIndexDeps {
  readonly dataDir: string;
  readonly catalog: Catalog;
  readonly pool: Pick<WorkerPool, 'parseSymbols'>;
}

export interface ClosableSymbolIndex extends SymbolIndex {
  close(): Promise<void>;
}

export function createSymbolIndex(deps: SymbolIndexDeps): ClosableSymbolIndex {
  const lookup = createDocLookup((id) => join(segmentsDir(deps.dataDir), id));

  const filesWith = (name: string, canRead: (repo: string) => boolean, docsOf: (reader: SegmentReader, name: string) => Uint32Array): SymbolFileRef[] => {
    const files: SymbolFileRef[] = [];
    for (const manifest of deps.catalog.list()) {
      if (!canRead(manifest.repo)) continue;
      const seen = new Set<string>();
      for (const segment of lookup.segments(manifest)) {
        for (const doc of docsOf(segment.reader, name)) {
          if (segment.isDeleted(doc)) continue;
          const path = segment.reader.path(doc);
          if (seen.has(path)) continue;
          seen.add(path);
          files.push({ repo: manifest.repo, commit: manifest.commit, path });
        }
      }
    }
    return files;
  };

  /** The file's encoded tables at the indexed commit; valid until the next read, so decode at once. */
  const storedSymbols = (repo: string, path: string): Uint8Array | null => {
    const manifest = deps.catalog.get(repo);
    const found = manifest ? lookup.locate(manifest, path) : null;
    return found?.reader.symbols(found.doc) ?? null;
  };

  return {
    fileSymbols(repo, path) {
      const bytes = storedSymbols(repo, path);
      return bytes ? decodeFileSymbols(bytes) : null;
    },
    namedReferences(repo, path, name) {
      const bytes = storedSymbols(repo, path);
      return bytes ? decodeNamedReferences(bytes, name) : null;
    },
    filesDefining: (name, canRead) => filesWith(name, canRead, (reader, n) => reader.docsDefining(n)),
    filesReferencing: (name, canRead) => filesWith(name, canRead, (reader, n) => reader.docsReferencing(n)),
    async parse(path: string, content: Uint8Array): Promise<FileSymbols | null> {
      const bytes = await deps.pool.parseSymbols(path, content);
      return bytes ? decodeFileSymbols(bytes) : null;
    },
    close: () => lookup.close(),
  };
}
