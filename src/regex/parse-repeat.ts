/**
 * RE2 repetition operators: `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each optionally lazy, with RE2's
 * limits (counts up to 1000, also as a product when nested) and no nesting or possessive forms.
 */

import type { RegexNode } from './ast.js';
import type { Cursor } from './cursor.js';

const MAX_REPEAT = 1000;

export class RepeatParser {
  /** For each repeat node, the product of the counted repetitions it nests. */
  private readonly weights = new WeakMap<RegexNode, number>();

  constructor(private readonly cur: Cursor) {}

  /** The repetition operator at the cursor; a `{` that does not form one is a literal. */
  operatorAt(): string | null {
    const c = this.cur.peek();
    if (c === '*' || c === '+' || c === '?') return c;
    if (c !== '{') return null;
    return /^\{\d+(,\d*)?\}/.exec(this.cur.src.slice(this.cur.pos, this.cur.pos + 24))?.[0] ?? null;
  }

  /** Applies `op` (at the cursor) to `body`; `ungreedy` is the `(?U)` flag, which swaps laziness. */
  parse(body: RegexNode, op: string, ungreedy: boolean): RegexNode {
    const start = this.cur.pos;
    this.cur.pos += op.length;
    const counted = /^\{(\d+)(,(\d*))?\}$/.exec(op);
    let [min, max] = op === '*' ? [0, Infinity] : op === '+' ? [1, Infinity] : [0, 1];
    if (counted !== null) {
      min = Number(counted[1]);
      max = counted[2] === undefined ? min : counted[3] === '' ? Infinity : Number(counted[3]);
      if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT) || min > max) this.cur.fail(`invalid repeat count: \`${op}\``, start);
    }
    const lazy = this.cur.peek() === '?';
    if (lazy) this.cur.pos++;
    const next = this.operatorAt();
    if (next !== null) {
      const possessive = next === '+' ? ' (possessive repetition is not supported)' : '';
      this.cur.fail(`invalid nested repetition operator: \`${this.cur.since(start)}${next}\`${possessive}`, start);
    }
    const node: RegexNode = { kind: 'repeat', body, min, max, lazy: lazy !== ungreedy };
    const count = counted === null ? 1 : Math.max(1, max === Infinity ? min : max);
    const weight = count * this.nestedWeight(body);
    if (weight > MAX_REPEAT) this.cur.fail(`invalid repeat count: \`${op}\` nests repetitions over ${MAX_REPEAT}`, start);
    this.weights.set(node, weight);
    return node;
  }

  private nestedWeight(node: RegexNode): number {
    switch (node.kind) {
      case 'repeat':
        return this.weights.get(node) ?? 1;
      case 'group':
      case 'look':
        return this.nestedWeight(node.body);
      case 'concat':
      case 'alt':
        return node.items.reduce((most, item) => Math.max(most, this.nestedWeight(item)), 1);
      default:
        return 1;
    }
  }
}
