/**
 * Decoded symbol tables kept across navigation calls, least recently used first out, bounded by the
 * number of entries (definitions, references, imports) they hold. Keyed by commit, so a re-index
 * never serves stale tables: its files arrive under their new commit.
 */
import type { FileSymbols } from '../../model/symbols.js';

const DEFAULT_BUDGET = 4_000_000;

export class FileSymbolsCache {
  private readonly entries = new Map<string, FileSymbols>();
  private weight = 0;

  constructor(private readonly budget = DEFAULT_BUDGET) {}

  get(repo: string, commit: string, path: string, load: () => FileSymbols | null): FileSymbols | null {
    const key = `${repo}\0${commit}\0${path}`;
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const symbols = load();
    if (symbols === null) return null;
    const weight = weightOf(symbols);
    if (weight > this.budget) return symbols;
    this.entries.set(key, symbols);
    this.weight += weight;
    for (const [oldKey, old] of this.entries) {
      if (this.weight <= this.budget) break;
      this.entries.delete(oldKey);
      this.weight -= weightOf(old);
    }
    return symbols;
  }
}

function weightOf(symbols: FileSymbols): number {
  return 1 + symbols.definitions.length + symbols.references.length + symbols.imports.length;
}
