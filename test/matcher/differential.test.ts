/**
 * Hyperscan against the JS reference on seeded random hay and patterns: identical triples where
 * extents are unambiguous (one greedy quantifier at most), identical matched lines elsewhere.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHyperscanMatcherFactory } from '../../src/matcher/hyperscan.js';
import { createJsMatcherFactory } from '../../src/matcher/js-regexp.js';
import type { MatcherFactory, PatternSpec } from '../../src/matcher/matcher.js';
import { triples, type Triple } from '../contracts/matcher.contract.js';
import { random } from './random-specs.js';

const hyperscan = createHyperscanMatcherFactory();
const js = createJsMatcherFactory();

type Atom = { hyperscan: string; js: string };

const HAY_CHARS = ['a', 'a', 'b', 'b', 'c', 'A', 'B', 'x', '1', '2', '_', ' ', ' ', '\n', '\r', 'é', 'É', '😀'];
const ASCII_ATOMS: Atom[] = [
  ...['a', 'b', 'c', 'x', '1', '_'].map((c) => ({ hyperscan: c, js: c })),
  ...['[ab]', '[a-c]', '[^a\\n]', '\\d', '\\w'].map((c) => ({ hyperscan: c, js: c })),
  { hyperscan: '.', js: '[^\\n]' },
];
const UNICODE_ATOMS: Atom[] = [...ASCII_ATOMS, { hyperscan: 'é', js: 'é' }, { hyperscan: '😀', js: '😀' }];
const QUANTIFIERS = ['+', '*', '?', '{1,3}', '{2}'];

class Generator {
  constructor(private readonly next: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  hay(length: number, invalidBytes: boolean): Uint8Array {
    let text = '';
    for (let i = 0; i < length; i++) text += this.pick(invalidBytes ? HAY_CHARS.slice(0, 15) : HAY_CHARS);
    const bytes = new TextEncoder().encode(text);
    if (invalidBytes) for (let i = 0; i < 8; i++) bytes[this.int(0, bytes.length - 1)] = this.int(0x80, 0xff);
    return bytes;
  }

  /** Fixed atoms around at most one quantified atom: greedy JS extents then equal the longest. */
  unambiguous(atoms: readonly Atom[]): PatternSpec {
    const parts: Atom[] = [];
    const count = this.int(1, 4);
    const quantified = this.next() < 0.7 ? this.int(0, count - 1) : -1;
    for (let i = 0; i < count; i++) {
      const atom = this.pick(atoms);
      const quantifier = i === quantified ? this.pick(count === 1 ? ['+', '{1,3}', '{2}'] : QUANTIFIERS) : '';
      parts.push({ hyperscan: atom.hyperscan + quantifier, js: atom.js + quantifier });
    }
    if (this.next() < 0.15) parts.unshift({ hyperscan: '^', js: '(?<![^\\n])' });
    if (this.next() < 0.15) parts.push({ hyperscan: '$', js: '(?![^\\n])' });
    return this.spec(parts);
  }

  /** Alternation, lazy and stacked quantifiers: extents may differ, matched lines may not. */
  ambiguous(): PatternSpec {
    const branch = (): Atom[] => Array.from({ length: this.int(1, 3) }, () => this.pick(UNICODE_ATOMS));
    const join = (atoms: Atom[], key: keyof Atom) => atoms.map((atom) => atom[key]).join('');
    const left = branch();
    const right = branch();
    const tail = this.pick(UNICODE_ATOMS);
    const lazy = this.pick(['+?', '*', '+', '{1,2}?']);
    const alternation = (key: keyof Atom) => `(?:${join(left, key)}|${join(right, key)})`;
    return this.spec([
      { hyperscan: alternation('hyperscan'), js: alternation('js') },
      { hyperscan: tail.hyperscan + lazy, js: tail.js + lazy },
      this.pick(UNICODE_ATOMS),
    ]);
  }

  private spec(parts: readonly Atom[]): PatternSpec {
    return {
      hyperscan: parts.map((part) => part.hyperscan).join(''),
      js: parts.map((part) => part.js).join(''),
      caseless: this.next() < 0.3,
    };
  }
}

function scan(factory: MatcherFactory, patterns: readonly PatternSpec[], hay: Uint8Array, utf8: boolean): Triple[] {
  return triples(factory.compile(patterns), hay, utf8);
}

function matchedLines(hay: Uint8Array, found: readonly Triple[]): string[] {
  const lineStarts: number[] = [0];
  hay.forEach((byte, at) => byte === 0x0a && lineStarts.push(at + 1));
  const lineOf = (offset: number) => lineStarts.findLastIndex((start) => start <= offset);
  return [...new Set(found.map(([pattern, start]) => `${pattern}:${lineOf(start)}`))].sort();
}

/** Runs `cases` seeded sets; returns how many Hyperscan took, so a test can insist it was most. */
function compareMany(seed: number, cases: number, check: (gen: Generator) => number): number {
  const gen = new Generator(random(seed));
  let compared = 0;
  for (let i = 0; i < cases; i++) compared += check(gen);
  return compared;
}

function describeCase(patterns: readonly PatternSpec[], hay: Uint8Array): string {
  return `patterns ${JSON.stringify(patterns)} on hay ${JSON.stringify(Buffer.from(hay).toString('latin1'))}`;
}

describe('hyperscan vs js differential', () => {
  it('gives identical triples for unambiguous patterns on UTF-8 hay', () => {
    const compared = compareMany(0x5eed, 400, (gen) => {
      const patterns = Array.from({ length: gen.int(1, 3) }, () => gen.unambiguous(UNICODE_ATOMS));
      const hay = gen.hay(gen.int(0, 600), false);
      if (!hyperscan.supports(patterns).ok) return 0;
      assert.deepEqual(scan(hyperscan, patterns, hay, true), scan(js, patterns, hay, true), describeCase(patterns, hay));
      return 1;
    });
    assert.ok(compared > 350, `Hyperscan took only ${compared} of 400 sets`);
  });

  it('gives identical triples for ASCII patterns on non-UTF-8 hay', () => {
    const compared = compareMany(0xb17e, 200, (gen) => {
      const patterns = Array.from({ length: gen.int(1, 3) }, () => gen.unambiguous(ASCII_ATOMS));
      const hay = gen.hay(gen.int(1, 600), true);
      if (!hyperscan.supports(patterns).ok) return 0;
      assert.deepEqual(scan(hyperscan, patterns, hay, false), scan(js, patterns, hay, false), describeCase(patterns, hay));
      return 1;
    });
    assert.ok(compared > 175, `Hyperscan took only ${compared} of 200 sets`);
  });

  it('matches the same lines for patterns with ambiguous extents', () => {
    const compared = compareMany(0xa1b1, 300, (gen) => {
      const patterns = Array.from({ length: gen.int(1, 2) }, () => gen.ambiguous());
      const hay = gen.hay(gen.int(0, 600), false);
      if (!hyperscan.supports(patterns).ok) return 0;
      const lines = matchedLines(hay, scan(hyperscan, patterns, hay, true));
      assert.deepEqual(lines, matchedLines(hay, scan(js, patterns, hay, true)), describeCase(patterns, hay));
      return 1;
    });
    assert.ok(compared > 250, `Hyperscan took only ${compared} of 300 sets`);
  });
});
