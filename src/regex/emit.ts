/**
 * Writes the AST back out as one engine's regex source. The walk, precedence and case expansion live
 * here; each dialect (to-js.ts, to-hyperscan.ts) only spells things. Never changes what matches.
 */

import { isZeroWidth, type AssertKind, type PropertyItem, type RegexNode } from './ast.js';
import { orbitOf } from './case-fold.js';
import { ALL_CODE_POINTS, asciiPart, complement, pairsOf, sameSet, singleton, type RangeSet } from './charset.js';

export interface Dialect {
  /** One code point outside a class. */
  literal(cp: number): string;
  /** One code point inside a class. */
  classChar(cp: number): string;
  readonly anyChar: string;
  readonly anyButNewline: string;
  /** Spellings the engine lacks are null; the whole pattern then has no source in this dialect. */
  readonly noChar: string | null;
  property(item: PropertyItem): string | null;
  assertion(kind: AssertKind): string;
  group(body: string): string;
  backref(index: number): string | null;
  look(body: string, behind: boolean, negated: boolean): string | null;
  /** Engines that refuse to repeat zero-width or zero-count atoms get those repeats simplified away. */
  readonly simplifyEmptyRepeats: boolean;
}

/** Thrown inside the walk when the dialect cannot express a node. */
class Inexpressible extends Error {}

const NOT_NEWLINE = complement(singleton(0x0a));

/** How an emitted piece may be combined: quantified directly, concatenated, or only as a whole. */
const Prec = { Atom: 0, Sequence: 1, Alternation: 2 } as const;
type Prec = (typeof Prec)[keyof typeof Prec];

interface Piece {
  readonly text: string;
  readonly prec: Prec;
}

/**
 * The pattern's source in `dialect`, or null when it needs something the dialect lacks. With
 * `asciiHay`, classes and case orbits drop their non-ASCII members (when they have ASCII ones):
 * the result matches exactly as the full pattern does, but only on text that is pure ASCII.
 */
export function emitPattern(root: RegexNode, dialect: Dialect, caseless: boolean, asciiHay = false): string | null {
  try {
    return new Emitter(dialect, caseless, asciiHay).emit(root).text;
  } catch (err) {
    if (err instanceof Inexpressible) return null;
    throw err;
  }
}

class Emitter {
  constructor(
    private readonly d: Dialect,
    private readonly caseless: boolean,
    private readonly asciiHay: boolean,
  ) {}

  emit(node: RegexNode): Piece {
    switch (node.kind) {
      case 'empty':
        return { text: '', prec: Prec.Sequence };
      case 'literal':
        return { text: this.literal(node.cp, node.fold), prec: Prec.Atom };
      case 'class':
        return { text: this.charClass(node.set, node.props, node.negated), prec: Prec.Atom };
      case 'assert':
        return { text: this.d.assertion(node.assert), prec: Prec.Sequence };
      case 'group':
        return { text: this.d.group(this.emit(node.body).text), prec: Prec.Atom };
      case 'backref':
        return { text: need(this.d.backref(node.index)), prec: Prec.Atom };
      case 'look':
        return { text: need(this.d.look(this.emit(node.body).text, node.behind, node.negated)), prec: Prec.Sequence };
      case 'concat':
        return { text: node.items.map((item) => this.wrapAbove(this.emit(item), Prec.Sequence)).join(''), prec: Prec.Sequence };
      case 'alt':
        return { text: node.items.map((item) => this.emit(item).text).join('|'), prec: Prec.Alternation };
      case 'repeat':
        return this.repeat(node.body, node.min, node.max, node.lazy);
    }
  }

  private wrapAbove(piece: Piece, prec: Prec): string {
    return piece.prec > prec ? `(?:${piece.text})` : piece.text;
  }

  private repeat(body: RegexNode, min: number, max: number, lazy: boolean): Piece {
    if (this.d.simplifyEmptyRepeats && (max === 0 || isZeroWidth(body))) {
      return min === 0 || max === 0 ? { text: '', prec: Prec.Sequence } : this.emit(body);
    }
    const operand = this.wrapAbove(this.emit(body), Prec.Atom);
    let op: string;
    if (max === Infinity) op = min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
    else if (min === 0 && max === 1) op = '?';
    else op = min === max ? `{${min}}` : `{${min},${max}}`;
    // A quantified piece cannot take another quantifier directly, so it is not an atom.
    return { text: operand + op + (lazy ? '?' : ''), prec: Prec.Sequence };
  }

  private literal(cp: number, fold: boolean): string {
    if (!fold || this.caseless) return this.d.literal(cp);
    const orbit = this.forHay(orbitOf(cp));
    return orbit.length === 1 ? this.d.literal(cp) : `[${orbit.map((v) => this.d.classChar(v)).join('')}]`;
  }

  /** The members that can occur in the hay: all, or on ASCII hay the ASCII ones if there are any. */
  private forHay(cps: readonly number[]): readonly number[] {
    const ascii = this.asciiHay ? cps.filter((cp) => cp <= 0x7f) : [];
    return ascii.length > 0 ? ascii : cps;
  }

  private charClass(whole: RangeSet, props: readonly PropertyItem[], negated: boolean): string {
    if (props.length === 0 && sameSet(whole, ALL_CODE_POINTS)) return this.d.anyChar;
    if (props.length === 0 && sameSet(whole, NOT_NEWLINE)) return this.d.anyButNewline;
    const ascii = this.asciiHay && props.length === 0 && !negated ? asciiPart(whole) : [];
    const set = ascii.length > 0 ? ascii : whole;
    if (props.length === 1 && set.length === 0 && !negated) return need(this.d.property(props[0] as PropertyItem));
    if (props.length > 0) {
      const propText = props.map((p) => need(this.d.property(p))).join('');
      return `[${negated ? '^' : ''}${this.ranges(set)}${propText}]`;
    }
    if (set.length === 0) return need(this.d.noChar);
    if (sameSet(set, ALL_CODE_POINTS)) return this.d.anyChar;
    if (sameSet(set, NOT_NEWLINE)) return this.d.anyButNewline;
    if (set.length === 2 && set[0] === set[1]) return this.d.literal(set[0] as number);
    const outside = complement(set);
    return outside.length < set.length ? `[^${this.ranges(outside)}]` : `[${this.ranges(set)}]`;
  }

  private ranges(set: RangeSet): string {
    const c = (cp: number): string => this.d.classChar(cp);
    return pairsOf(set)
      .map(([lo, hi]) => (lo === hi ? c(lo) : hi === lo + 1 ? c(lo) + c(hi) : `${c(lo)}-${c(hi)}`))
      .join('');
  }
}

function need(text: string | null): string {
  if (text === null) throw new Inexpressible();
  return text;
}
