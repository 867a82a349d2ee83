/**
 * Seeded random pattern sets and hay for differential tests: a small PRNG and a generator of
 * patterns written in both dialects. Test data only; it asserts nothing.
 */

import type { PatternSpec } from '../../src/matcher/matcher.js';

export { seededRandom as random } from '../helpers/random.js';

type Atom = { readonly hyperscan: string; readonly js: string };

const both = (source: string): Atom => ({ hyperscan: source, js: source });
const ATOMS: readonly Atom[] = [
  ...['a', 'b', 'c', 'x', '1', '_', 'é', '😀', '[ab]', '[^a\\n]', '\\d', '\\w', '\\s', '\\bx'].map(both),
  { hyperscan: '.', js: '[^\\n]' },
  { hyperscan: '\\x{1F600}', js: '\\u{1F600}' },
];
// Empty-matching quantifiers are rarer so most sets stay within Hyperscan (which refuses them).
const QUANTIFIERS = ['', '', '', '+', '{1,3}', '{2}', '+?', '*', '?'];
const HAY_TEXT = ['a', 'a', 'b', 'b', 'c', 'x', 'A', 'X', '1', '_', ' ', ' ', '\n', '\r', 'é', 'É', '😀'];

/** Broad, unconstrained patterns: alternations, lazy and empty-matching quantifiers, anchors. */
export class SpecGenerator {
  constructor(private readonly next: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  patterns(max: number): PatternSpec[] {
    return Array.from({ length: this.int(1, max) }, () => this.pattern());
  }

  /** Random text; with `invalidBytes`, some bytes become lone high bytes (not UTF-8). */
  hay(length: number, invalidBytes: boolean): Uint8Array {
    let text = '';
    for (let i = 0; i < length; i++) text += this.pick(HAY_TEXT);
    const bytes = new TextEncoder().encode(text);
    const spoiled = invalidBytes && bytes.length > 0 ? this.int(1, 6) : 0;
    for (let i = 0; i < spoiled; i++) bytes[this.int(0, bytes.length - 1)] = this.int(0x80, 0xff);
    return bytes;
  }

  private pattern(): PatternSpec {
    let body = this.sequence();
    if (this.next() < 0.25) {
      const other = this.sequence();
      body = { hyperscan: `(?:${body.hyperscan}|${other.hyperscan})`, js: `(?:${body.js}|${other.js})` };
    }
    if (this.next() < 0.1) body = { hyperscan: `^${body.hyperscan}`, js: `(?<![^\\n])${body.js}` };
    if (this.next() < 0.1) body = { hyperscan: `${body.hyperscan}$`, js: `${body.js}(?![^\\n])` };
    return { ...body, caseless: this.next() < 0.3 };
  }

  private sequence(): Atom {
    const parts = Array.from({ length: this.int(1, 3) }, () => {
      const atom = this.pick(ATOMS);
      const quantifier = this.pick(QUANTIFIERS);
      return { hyperscan: atom.hyperscan + quantifier, js: atom.js + quantifier };
    });
    return { hyperscan: parts.map((p) => p.hyperscan).join(''), js: parts.map((p) => p.js).join('') };
  }
}
