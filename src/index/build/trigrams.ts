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
    return this.collect(content, 0, content.length, this.nextStamp(), out, at);
  }

  /**
   * The distinct trigrams of several ranges of `content` taken together (none spans two ranges):
   * `ranges` holds start, end pairs. Written into `out` from `at`; returns the new end.
   */
  extractRanges(content: Uint8Array, ranges: ArrayLike<number>, out: Uint32Array, at: number): number {
    const stamp = this.nextStamp();
    let n = at;
    for (let r = 0; r + 1 < ranges.length; r += 2) n = this.collect(content, ranges[r]!, ranges[r + 1]!, stamp, out, n);
    return n;
  }

  private collect(content: Uint8Array, start: number, end: number, stamp: number, out: Uint32Array, at: number): number {
    const seen = this.lastSeen;
    let n = at;
    if (end - start < 3) return n;
    let t = (content[start]! << 8) | content[start + 1]!;
    for (let i = start + 2; i < end; i++) {
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
