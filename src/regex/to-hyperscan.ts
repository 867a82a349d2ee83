/**
 * The Hyperscan dialect, for HS_FLAG_UTF8 | HS_FLAG_MULTILINE (plus HS_FLAG_CASELESS when caseless),
 * without HS_FLAG_DOTALL or HS_FLAG_UCP. Null when Hyperscan cannot run the pattern exactly.
 */

import { isZeroWidth, type AssertKind, type RegexNode } from './ast.js';
import { emitPattern, type Dialect } from './emit.js';

const SYNTAX = new Set('^$\\.*+?()[]{}|');
const CLASS_SYNTAX = new Set('\\]-^[');

function escape(cp: number, special: ReadonlySet<string>): string {
  // PCRE's `\v` is a class (vertical space), so controls are always written in hex.
  if (cp < 0x20 || cp === 0x7f) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp > 0x7f) return `\\x{${cp.toString(16)}}`;
  const c = String.fromCharCode(cp);
  return special.has(c) ? `\\${c}` : c;
}

const HYPERSCAN_DIALECT: Dialect = {
  literal: (cp) => escape(cp, SYNTAX),
  classChar: (cp) => escape(cp, CLASS_SYNTAX),
  anyChar: '[\\s\\S]',
  anyButNewline: '.',
  // Hyperscan rejects a pattern that can never match; the JS engine answers it instantly.
  noChar: null,
  // Hyperscan's Unicode tables are older than the JS engine's, so properties would not agree.
  property: () => null,
  assertion: (kind) => ({ lineStart: '^', lineEnd: '$', textStart: '\\A', textEnd: '\\z', wordBoundary: '\\b', notWordBoundary: '\\B' })[kind],
  group: (body) => `(?:${body})`,
  backref: () => null,
  look: () => null,
  simplifyEmptyRepeats: true,
};

export function toHyperscan(root: RegexNode, caseless: boolean, asciiHay = false): string | null {
  if (!anchorsAtEdges(root, true, true)) return null;
  return emitPattern(root, HYPERSCAN_DIALECT, caseless, asciiHay);
}

/**
 * Hyperscan refuses start anchors that something can precede and end anchors that something can
 * follow ("embedded anchors"), e.g. `a\n^b`, `$\b`, even `^^`; it accepts `\A^` and `$\z`.
 * `first`: only `\A` or nothing comes before this node; `last`: only end anchors or nothing after.
 */
function anchorsAtEdges(node: RegexNode, first: boolean, last: boolean): boolean {
  switch (node.kind) {
    case 'assert':
      if (node.assert === 'lineStart' || node.assert === 'textStart') return first;
      if (node.assert === 'lineEnd' || node.assert === 'textEnd') return last;
      return true;
    case 'group':
    case 'look':
      return anchorsAtEdges(node.body, first, last);
    case 'alt':
      return node.items.every((item) => anchorsAtEdges(item, first, last));
    case 'repeat': {
      // Emitted as nothing, or (for zero-width bodies) as the body once.
      if (node.max === 0 || (isZeroWidth(node.body) && node.min === 0)) return true;
      const once = node.max <= 1 || isZeroWidth(node.body);
      return anchorsAtEdges(node.body, first && once, last && once);
    }
    case 'concat': {
      const firstSolid = node.items.findIndex((item) => !consistsOf(item, START_TRANSPARENT));
      const lastSolid = node.items.findLastIndex((item) => !consistsOf(item, END_TRANSPARENT));
      return node.items.every((item, i) =>
        anchorsAtEdges(item, first && (firstSolid < 0 || i <= firstSolid), last && (lastSolid < 0 || i >= lastSolid)),
      );
    }
    default:
      return true;
  }
}

const START_TRANSPARENT: ReadonlySet<AssertKind> = new Set(['textStart']);
const END_TRANSPARENT: ReadonlySet<AssertKind> = new Set(['lineEnd', 'textEnd']);

/** True when the node is made of nothing but the given assertions (or nothing at all). */
function consistsOf(node: RegexNode, asserts: ReadonlySet<AssertKind>): boolean {
  switch (node.kind) {
    case 'empty':
      return true;
    case 'assert':
      return asserts.has(node.assert);
    case 'group':
    case 'repeat':
      return consistsOf(node.body, asserts);
    case 'concat':
    case 'alt':
      return node.items.every((item) => consistsOf(item, asserts));
    default:
      return false;
  }
}
