/**
 * Distinct trigrams of one document, the hot loop of indexing. Uses a per-thread stamp table over
 * all 2^24 trigrams instead of a Set, so each byte costs a few array operations and no allocation.
 */
const TRIGRAM_SPACE = 1 << 24;

export class TrigramExtractor {
  /**
   * Zero is no document's stamp, so the table needs no fill: its pages stay untouched until a
   * trigram lands on them, and every page the process touches makes each later fork (every git
   * spawn) slower.
   */
  private readonly lastSeen = new Int32Array(TRIGRAM_SPACE);
  private stamp = 0;

  /** Writes the document's distinct trigrams (unordered) into `out` from `at`; returns the new end. */
  extract(content: Uint8Array, out: Uint32Array, at: number): number {
    const stamp = this.nextStamp();
    const seen = this.lastSeen;
    let n = at;
    if (content.length < 3) return n;
    let t = (content[0]! << 8) | content[1]!;
    for (let i = 2; i < content.length; i++) {
      t = ((t << 8) | content[i]!) & 0xffffff;
      if (seen[t] !== stamp) {
        seen[t] = stamp;
        out[n++] = t;
      }
    }
    return n;
  }

  private nextStamp(): number {
    // Stamps wrap after 2^31 documents; clearing then keeps "seen" exact.
    if (this.stamp === 0x7fffffff) {
      this.lastSeen.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }
}

/** Upper bound on distinct trigrams of a document of `length` bytes. */
export function maxTrigrams(length: number): number {
  return Math.max(0, Math.min(length - 2, TRIGRAM_SPACE));
}
