/**
 * A small parser for JSON with comments (`//`, `/* *\/`) and trailing commas, as site
 * configuration is written. Errors say where, as `line:column` (both from 1); duplicate keys are errors.
 */

import { createError } from '../errors.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERALS: readonly [string, JsonValue][] = [['true', true], ['false', false], ['null', null]];

class Cursor {
  pos = 0;
  constructor(readonly text: string) {}

  fail(message: string, at = this.pos): never {
    const before = this.text.slice(0, at).split('\n');
    const line = before.length;
    const column = (before[before.length - 1]?.length ?? 0) + 1;
    throw createError('CONFIG_INVALID', `invalid JSON at ${line}:${column}: ${message}`, { line, column });
  }

  skipSpace(): void {
    for (;;) {
      const rest = this.text.slice(this.pos, this.pos + 2);
      if (/^\s/.test(rest)) this.pos++;
      else if (rest === '//') {
        const end = this.text.indexOf('\n', this.pos);
        this.pos = end === -1 ? this.text.length : end;
      } else if (rest === '/*') {
        const end = this.text.indexOf('*/', this.pos + 2);
        if (end === -1) this.fail('unterminated comment');
        this.pos = end + 2;
      } else return;
    }
  }

  describeHere(): string {
    const ch = this.text[this.pos];
    return ch === undefined ? 'end of input' : `"${ch}"`;
  }

  expect(ch: string): void {
    this.skipSpace();
    if (this.text[this.pos] !== ch) this.fail(`expected "${ch}", found ${this.describeHere()}`);
    this.pos++;
  }

  match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.pos;
    const found = pattern.exec(this.text)?.[0];
    if (found !== undefined) this.pos += found.length;
    return found;
  }
}

function parseString(cur: Cursor): string {
  const raw = cur.match(STRING);
  if (raw === undefined) cur.fail('invalid string');
  return JSON.parse(raw) as string;
}

/** Parses the items between `open` and `close`, allowing one trailing comma. */
function parseSequence(cur: Cursor, close: string, item: () => void): void {
  cur.pos++;
  for (;;) {
    cur.skipSpace();
    if (cur.text[cur.pos] === close) break;
    item();
    cur.skipSpace();
    if (cur.text[cur.pos] === ',') cur.pos++;
    else if (cur.text[cur.pos] !== close) cur.fail(`expected "," or "${close}", found ${cur.describeHere()}`);
  }
  cur.pos++;
}

function parseValue(cur: Cursor): JsonValue {
  cur.skipSpace();
  const ch = cur.text[cur.pos];
  if (ch === '{') {
    // No prototype, so a "__proto__" key is plain data.
    const object = Object.create(null) as { [key: string]: JsonValue };
    parseSequence(cur, '}', () => {
      const keyAt = cur.pos;
      if (cur.text[cur.pos] !== '"') cur.fail(`expected a quoted key, found ${cur.describeHere()}`);
      const key = parseString(cur);
      if (Object.hasOwn(object, key)) cur.fail(`duplicate key "${key}"`, keyAt);
      cur.expect(':');
      object[key] = parseValue(cur);
    });
    return object;
  }
  if (ch === '[') {
    const array: JsonValue[] = [];
    parseSequence(cur, ']', () => void array.push(parseValue(cur)));
    return array;
  }
  if (ch === '"') return parseString(cur);
  const number = cur.match(NUMBER);
  if (number !== undefined) return Number(number);
  for (const [word, value] of LITERALS) {
    if (cur.text.startsWith(word, cur.pos)) {
      cur.pos += word.length;
      return value;
    }
  }
  return cur.fail(`unexpected ${cur.describeHere()}`);
}

export function parseJsonc(text: string): JsonValue {
  const cur = new Cursor(text);
  const value = parseValue(cur);
  cur.skipSpace();
  if (cur.pos < text.length) cur.fail(`unexpected ${cur.describeHere()} after the document`);
  return value;
}
