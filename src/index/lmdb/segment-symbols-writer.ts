/**
 * The symbols phase's write: a sealed text-only segment copied aside under a new id, its symbol
 * tables added, then sealed again. The original is never written to (readers may have it mapped);
 * the copy serves only once the catalog swaps a manifest to it, so a killed run leaves an orphan.
 */
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { COL_SYMBOL_STATUS, CONTENT_FILE, DB_SYMBOL_DEFS, DB_SYMBOL_IMPORTS, DB_SYMBOL_REFS, DB_SYMBOLS, META_FILE } from '../format.js';
import { lmdbBytes, requireSpace } from './disk-space.js';
import { writeSeal } from './segment-seal.js';
import { symbolIndexEntries, type SegmentSymbols } from './segment-writer.js';
import { WRITABLE, WriteTracker } from './writes.js';

export interface SegmentSymbolsWriter {
  readonly dir: string;
  /** The encoded FileSymbols of a doc, and of its language and imports alone (any order, at most once per doc). */
  addSymbols(doc: number, encoded: Uint8Array, imports: Uint8Array): void;
  /** Writes the name indexes and status column, then seals the copy. */
  finish(symbols: SegmentSymbols): Promise<void>;
  abort(): Promise<void>;
}

export function createSegmentSymbolsWriter(fromDir: string, toDir: string): SegmentSymbolsWriter {
  const files = [META_FILE, CONTENT_FILE];
  requireSpace(dirname(toDir), files.reduce((n, f) => n + statSync(join(fromDir, f)).size, 0), 'the segment copy for symbol tables');
  mkdirSync(toDir, { recursive: true });
  for (const file of files) copyFileSync(join(fromDir, file), join(toDir, file));
  const what = 'writing symbol tables';
  const writes = new WriteTracker(dirname(toDir), what);
  const contentEnv: RootDatabase = open({ path: join(toDir, CONTENT_FILE), noSubdir: true, maxDbs: 4, noMemInit: true, ...WRITABLE });
  const symbolDb = contentEnv.openDB({ name: DB_SYMBOLS, encoding: 'binary', keyEncoding: 'uint32' });
  const importsDb = contentEnv.openDB({ name: DB_SYMBOL_IMPORTS, encoding: 'binary', keyEncoding: 'uint32' });
  let contentOpen = true;
  let pending = 0;

  return {
    dir: toDir,
    addSymbols(doc, encoded, imports) {
      pending += lmdbBytes(encoded.length) + lmdbBytes(imports.length);
      writes.track(symbolDb.put(doc, encoded));
      writes.track(importsDb.put(doc, imports));
    },
    async finish(symbols) {
      await writes.settled();
      contentOpen = false;
      await writes.close(contentEnv);
      const entries = symbolIndexEntries(symbols);
      let needed = lmdbBytes(symbols.status.length);
      for (const [key, value] of [...entries.defs, ...entries.refs]) needed += lmdbBytes(Buffer.byteLength(key) + value.length);
      requireSpace(dirname(toDir), needed + pending, 'the symbol name indexes');
      const metaWrites = new WriteTracker(dirname(toDir), what);
      const env: RootDatabase = open({ path: join(toDir, META_FILE), noSubdir: true, maxDbs: 4, noMemInit: true, ...WRITABLE });
      const columns = new Map<string, Uint8Array>();
      try {
        const cols: Database<Uint8Array, string> = env.openDB({ name: 'cols', encoding: 'binary' });
        const defs: Database<Uint8Array, string> = env.openDB({ name: DB_SYMBOL_DEFS, encoding: 'binary' });
        const refs: Database<Uint8Array, string> = env.openDB({ name: DB_SYMBOL_REFS, encoding: 'binary' });
        for (const [key, value] of entries.defs) metaWrites.track(defs.put(key, value));
        for (const [key, value] of entries.refs) metaWrites.track(refs.put(key, value));
        metaWrites.track(cols.put(COL_SYMBOL_STATUS, symbols.status));
        await metaWrites.settled();
        await metaWrites.track(env.flushed);
        for (const { key, value } of cols.getRange()) columns.set(String(key), value);
      } finally {
        await metaWrites.close(env);
      }
      writeSeal(toDir, columns);
    },
    async abort() {
      if (contentOpen) {
        contentOpen = false;
        await writes.settled().catch(() => undefined);
        await writes.close(contentEnv);
      }
      rmSync(toDir, { recursive: true, force: true });
    },
  };
}
