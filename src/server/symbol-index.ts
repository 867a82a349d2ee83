/**
 * The SymbolIndex navigation reads, over the catalog and the live index segments: per-file symbol
 * tables and the per-segment name indexes. Newest segment wins; replaced docs are skipped. Parsing
 * of files outside the index runs in the worker pool, never here.
 */
import { join } from 'node:path';
import { segmentsDir, type Catalog } from '../index/lmdb/catalog.js';
import { createDocLookup } from '../index/lmdb/doc-lookup.js';
import type { SegmentReader } from '../index/lmdb/segment-reader.js';
import type { FileSymbols, ReferenceGroup, SymbolFileRef, SymbolIndex } from '../model/symbols.js';
import type { PoolFor } from '../pool/pool.js';
import { unpackReferenceInfo } from '../index/format.js';
import { decodeFileSymbols, decodeLanguageAndImports, decodeNamedReferences, decodeReferenceHead, nameNeedle } from '../symbols/codec.js';

/** The receivers of references none of which has one. */
const BARE: readonly (string | undefined)[] = [undefined];

export interface SymbolIndexDeps {
  readonly dataDir: string;
  readonly catalog: Catalog;
  readonly pool: PoolFor<'parse-symbols'>;
}

export interface ClosableSymbolIndex extends SymbolIndex {
  close(): Promise<void>;
}

export function createSymbolIndex(deps: SymbolIndexDeps): ClosableSymbolIndex {
  const lookup = createDocLookup((id) => join(segmentsDir(deps.dataDir), id));

  /** Each live doc of the readable repositories in the listings `list` gives, newest segment first. */
  const eachDoc = <L extends { readonly docs: Uint32Array }>(canRead: (repo: string) => boolean, list: (reader: SegmentReader) => L,
    visit: (file: SymbolFileRef, reader: SegmentReader, listing: L, at: number) => void): void => {
    for (const manifest of deps.catalog.list()) {
      if (!canRead(manifest.repo)) continue;
      // A newer segment's version of a path replaces older ones; a lone segment has nothing to replace.
      const seen = manifest.segments.length > 1 ? new Set<string>() : null;
      for (const segment of lookup.segments(manifest)) {
        const listing = list(segment.reader);
        listing.docs.forEach((doc, at) => {
          if (segment.isDeleted(doc)) return;
          const path = segment.reader.path(doc);
          if (seen !== null) {
            if (seen.has(path)) return;
            seen.add(path);
          }
          visit({ repo: manifest.repo, commit: manifest.commit, path }, segment.reader, listing, at);
        });
      }
    }
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
    filesDefining(name, canRead) {
      const files: SymbolFileRef[] = [];
      eachDoc(canRead, (reader) => ({ docs: reader.docsDefining(name) }), (file) => files.push(file));
      return files;
    },
    referenceGroups(name, canRead, mentions = () => null) {
      const needle = nameNeedle(name);
      const groups: ReferenceGroup[] = [];
      eachDoc(canRead, (reader) => reader.referencing(name), (file, reader, listing, at) => {
        // Located again when asked: by then other reads may have reused the buffer or closed the segment.
        const references = () => {
          const again = storedSymbols(file.repo, file.path);
          return again ? decodeNamedReferences(again, needle) : [];
        };
        const doc = listing.docs[at]!;
        const info = unpackReferenceInfo(listing.info[at]!);
        if (!info.definesName && !info.hasReceiver) {
          // What resolving such references needs is the file's language and imports: a small read.
          const bytes = reader.symbolImports(doc);
          const head = bytes ? decodeLanguageAndImports(bytes, mentions, BARE) : null;
          if (head !== null) groups.push({ file, ...head, definesName: false, count: info.count, receivers: BARE, references });
          return;
        }
        const bytes = reader.symbols(doc);
        const head = bytes ? decodeReferenceHead(bytes, needle, mentions) : null;
        if (head !== null) groups.push({ file, ...head, references });
      });
      return groups;
    },
    async parse(path: string, content: Uint8Array): Promise<FileSymbols | null> {
      const bytes = await deps.pool.submit('parse-symbols', { path, content });
      return bytes ? decodeFileSymbols(bytes) : null;
    },
    close: () => lookup.close(),
  };
}
