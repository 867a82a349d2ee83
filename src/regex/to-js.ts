/**
 * The JavaScript dialect: a source for `new RegExp(src, 'u')` (plus `i` when caseless) that matches
 * exactly what RE2 would under Sourcegraph's flags. Line anchors and `.` never treat `\r` as a line end.
 */

import type { RegexNode } from './ast.js';
import { emitPattern, type Dialect } from './emit.js';

const SYNTAX = new Set('^$\\.*+?()[]{}|/');
const CLASS_SYNTAX = new Set('\\]-^[');
const NAMED_CONTROLS: Readonly<Record<number, string>> = { 0x09: '\\t', 0x0a: '\\n', 0x0b: '\\v', 0x0c: '\\f', 0x0d: '\\r' };

function escape(cp: number, special: ReadonlySet<string>): string {
  const named = NAMED_CONTROLS[cp];
  if (named !== undefined) return named;
  if (cp < 0x20 || cp === 0x7f) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp > 0x7f) return `\\u{${cp.toString(16)}}`;
  const c = String.fromCharCode(cp);
  return special.has(c) ? `\\${c}` : c;
}

const JS_DIALECT: Dialect = {
  literal: (cp) => escape(cp, SYNTAX),
  classChar: (cp) => escape(cp, CLASS_SYNTAX),
  anyChar: '[\\s\\S]',
  anyButNewline: '[^\\n]',
  noChar: '[]',
  property: (item) => `\\${item.negated ? 'P' : 'p'}{${item.name}}`,
  assertion: (kind) => {
    switch (kind) {
      case 'lineStart':
        return '(?<![^\\n])';
      case 'lineEnd':
        return '(?![^\\n])';
      case 'textStart':
        return '(?<![\\s\\S])';
      case 'textEnd':
        return '(?![\\s\\S])';
      case 'wordBoundary':
        return '\\b';
      case 'notWordBoundary':
        return '\\B';
    }
  },
  group: (body) => `(${body})`,
  // Grouped so that a digit after it cannot extend the group number.
  backref: (index) => `(?:\\${index})`,
  look: (body, behind, negated) => `(?${behind ? '<' : ''}${negated ? '!' : '='}${body})`,
  simplifyEmptyRepeats: false,
};

/** JS can spell every node, so the source is never null. */
export function toJs(root: RegexNode, caseless: boolean): string {
  return emitPattern(root, JS_DIALECT, caseless) as string;
}
