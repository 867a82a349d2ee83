/**
 * RE2-syntax parser, extended with backreferences and look-around, producing the AST with all flags
 * resolved into nodes: `(?i)` folding, `(?s)` dots, `(?-m)` anchors and `(?U)` laziness.
 */

import { EMPTY, type AssertKind, type PropertyItem, type RegexNode } from './ast.js';
import { ALL_CODE_POINTS, complement, singleton, union, type RangeSet } from './charset.js';
import { foldCloseClass } from './case-fold.js';
import { Cursor } from './cursor.js';
import { parseClass } from './parse-class.js';
import { RepeatParser } from './parse-repeat.js';
import { isBackreference, parseCharEscape, parsePerlClass, parseUnicodeClass } from './parse-escape.js';

interface Flags {
  readonly fold: boolean;
  readonly dotNL: boolean;
  readonly multiLine: boolean;
  readonly ungreedy: boolean;
}

/** Group nesting limit: stricter than RE2's 1000 so every recursive pass stays well inside a worker's stack. */
const MAX_DEPTH = 250;

const NOT_NEWLINE = complement(singleton(0x0a));
const LOOK_OPENERS = [
  ['(?=', false, false],
  ['(?!', false, true],
  ['(?<=', true, false],
  ['(?<!', true, true],
] as const;

/** Parses `source`; `fold` starts the whole pattern case-insensitive, as a leading `(?i)` would. */
export function parseRegex(source: string, fold: boolean): RegexNode {
  return new Parser(source, fold).parse();
}

class Parser {
  private readonly cur: Cursor;
  private flags: Flags;
  private groupCount = 0;
  private depth = 0;
  private readonly names = new Set<string>();
  private readonly backrefs: { index: number; at: number }[] = [];
  private readonly repeats: RepeatParser;

  constructor(source: string, fold: boolean) {
    this.cur = new Cursor(source);
    this.repeats = new RepeatParser(this.cur);
    this.flags = { fold, dotNL: false, multiLine: true, ungreedy: false };
  }

  parse(): RegexNode {
    const root = this.parseAlternation();
    if (!this.cur.atEnd()) this.cur.fail('unexpected )');
    for (const ref of this.backrefs) {
      if (ref.index > this.groupCount) this.cur.fail(`invalid backreference \\${ref.index} (${this.groupCount} groups)`, ref.at);
    }
    return root;
  }

  private parseAlternation(): RegexNode {
    const items = [this.parseSequence()];
    while (this.cur.peek() === '|') {
      this.cur.pos++;
      items.push(this.parseSequence());
    }
    return items.length === 1 ? (items[0] as RegexNode) : { kind: 'alt', items };
  }

  private parseSequence(): RegexNode {
    const items: RegexNode[] = [];
    let repeatable = false;
    while (!this.cur.atEnd() && this.cur.peek() !== '|' && this.cur.peek() !== ')') {
      const op = this.repeats.operatorAt();
      if (op === null) {
        repeatable = this.parseAtom(items);
        continue;
      }
      const last = items.pop();
      if (!repeatable || last === undefined) this.cur.fail(`missing argument to repetition operator: \`${op}\``);
      items.push(this.repeats.parse(last, op, this.flags.ungreedy));
    }
    if (items.length === 0) return EMPTY;
    return items.length === 1 ? (items[0] as RegexNode) : { kind: 'concat', items };
  }

  /** Parses one atom into `items`; returns whether a repetition operator may follow. */
  private parseAtom(items: RegexNode[]): boolean {
    const c = this.cur.peek();
    if (c === '(') return this.parseGroup(items);
    if (c === '\\') return this.parseEscape(items);
    if (c === '[') {
      items.push(parseClass(this.cur, this.flags.fold));
      return true;
    }
    if (c === '^' || c === '$' || c === '.') {
      this.cur.pos++;
      if (c === '.') items.push(this.classNode(this.flags.dotNL ? ALL_CODE_POINTS : NOT_NEWLINE, []));
      else if (c === '^') items.push(this.assertion(this.flags.multiLine ? 'lineStart' : 'textStart'));
      else items.push(this.assertion(this.flags.multiLine ? 'lineEnd' : 'textEnd'));
      return true;
    }
    items.push(this.literal(this.cur.nextCodePoint()));
    return true;
  }

  private parseEscape(items: RegexNode[]): boolean {
    const start = this.cur.pos;
    const c = this.cur.peek(1);
    const assertKind = ({ A: 'textStart', z: 'textEnd', b: 'wordBoundary', B: 'notWordBoundary' } as const)[c as 'A'];
    if (assertKind !== undefined) {
      this.cur.pos += 2;
      items.push(this.assertion(assertKind));
      return true;
    }
    if (c === 'Q') return this.parseQuoted(items);
    if (c === 'p' || c === 'P') {
      let set: RangeSet = [];
      const props: PropertyItem[] = [];
      for (const item of parseUnicodeClass(this.cur, this.flags.fold)) {
        if ('set' in item) set = union(set, item.set);
        else props.push(item.prop);
      }
      items.push(this.classNode(this.flags.fold ? foldCloseClass(set, props) : set, props));
      return true;
    }
    const perl = parsePerlClass(this.cur, this.flags.fold);
    if (perl !== null) {
      items.push(this.classNode(perl, []));
      return true;
    }
    if (isBackreference(this.cur)) {
      const index = Number(c);
      this.cur.pos += 2;
      this.backrefs.push({ index, at: start });
      items.push({ kind: 'backref', index, fold: this.flags.fold });
      return true;
    }
    items.push(this.literal(parseCharEscape(this.cur)));
    return true;
  }

  /** `\Q…\E`: everything up to `\E` (or the end) is literal text. */
  private parseQuoted(items: RegexNode[]): boolean {
    this.cur.pos += 2;
    const end = this.cur.src.indexOf('\\E', this.cur.pos);
    const stop = end < 0 ? this.cur.src.length : end;
    const before = items.length;
    while (this.cur.pos < stop) items.push(this.literal(this.cur.nextCodePoint()));
    if (end >= 0) this.cur.pos = end + 2;
    return items.length > before;
  }

  private parseGroup(items: RegexNode[]): boolean {
    const start = this.cur.pos;
    const cur = this.cur;
    if (!cur.lookingAt('(?')) {
      const index = ++this.groupCount;
      items.push({ kind: 'group', index, body: this.parseGroupBody(start, 1, this.flags) });
      return true;
    }
    for (const [opener, behind, negated] of LOOK_OPENERS) {
      if (!cur.lookingAt(opener)) continue;
      items.push({ kind: 'look', behind, negated, body: this.parseGroupBody(start, opener.length, this.flags) });
      return true;
    }
    if (cur.lookingAt('(?P<') || cur.lookingAt('(?<')) {
      const open = cur.lookingAt('(?P<') ? 4 : 3;
      const close = cur.src.indexOf('>', start + open);
      const name = close < 0 ? '' : cur.src.slice(start + open, close);
      if (!/^[A-Za-z0-9_]+$/.test(name)) cur.fail(`invalid named capture: \`${cur.src.slice(start, close + 1 || undefined)}\``, start);
      if (this.names.has(name)) cur.fail(`duplicate capture group name: \`${name}\``, start);
      this.names.add(name);
      const index = ++this.groupCount;
      items.push({ kind: 'group', index, body: this.parseGroupBody(start, close + 1 - start, this.flags) });
      return true;
    }
    return this.parseFlags(items, start);
  }

  /** `(?flags)` changes the flags until the enclosing group ends; `(?flags:re)` only inside. */
  private parseFlags(items: RegexNode[], start: number): boolean {
    const src = this.cur.src;
    const flags = { ...this.flags };
    let sign = 1;
    let sawFlag = false;
    for (let pos = start + 2; ; pos++) {
      const c = src.charAt(pos);
      const bad = (): never => this.cur.fail(`invalid or unsupported Perl syntax: \`${src.slice(start, pos + 1)}\``, start);
      if (c === '') this.cur.fail(`missing closing ): \`${src.slice(start)}\``, start);
      if (c === '-') {
        if (sign < 0) bad();
        sign = -1;
        sawFlag = false;
      } else if (c === ':' || c === ')') {
        if (sign < 0 && !sawFlag) bad();
        if (c === ':') {
          items.push(this.parseGroupBody(start, pos + 1 - start, flags));
          return true;
        }
        this.cur.pos = pos + 1;
        this.flags = flags;
        return false;
      } else {
        const name = ({ i: 'fold', m: 'multiLine', s: 'dotNL', U: 'ungreedy' } as const)[c as 'i'];
        if (name === undefined) bad();
        flags[name] = sign > 0;
        sawFlag = true;
      }
    }
  }

  private parseGroupBody(start: number, openerLength: number, flags: Flags): RegexNode {
    if (++this.depth > MAX_DEPTH) this.cur.fail(`expression nests groups deeper than ${MAX_DEPTH}`, start);
    const saved = this.flags;
    this.flags = flags;
    this.cur.pos = start + openerLength;
    const body = this.parseAlternation();
    if (this.cur.peek() !== ')') this.cur.fail(`missing closing ): \`${this.cur.src.slice(start)}\``, start);
    this.cur.pos++;
    this.flags = saved;
    this.depth--;
    return body;
  }

  private literal(cp: number): RegexNode {
    return { kind: 'literal', cp, fold: this.flags.fold };
  }

  private classNode(set: RangeSet, props: readonly PropertyItem[]): RegexNode {
    return { kind: 'class', set, props, negated: false, fold: this.flags.fold };
  }

  private assertion(assert: AssertKind): RegexNode {
    return { kind: 'assert', assert };
  }
}
