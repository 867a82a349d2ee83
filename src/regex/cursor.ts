/**
 * A position in a regex source being parsed, and the one way parse errors are raised:
 * `regexp: <problem> at position N in /<source>/` (N counts UTF-16 code units).
 */

import { createError, type QuarryError } from '../errors.js';

function regexError(source: string, problem: string, position: number): QuarryError {
  return createError('PATTERN_INVALID', `regexp: ${problem} at position ${position} in /${source}/`, { position });
}

export class Cursor {
  pos = 0;

  constructor(readonly src: string) {}

  fail(problem: string, at: number = this.pos): never {
    throw regexError(this.src, problem, at);
  }

  atEnd(): boolean {
    return this.pos >= this.src.length;
  }

  /** The UTF-16 unit at the cursor ('' at the end): enough to recognise ASCII syntax. */
  peek(offset = 0): string {
    return this.src.charAt(this.pos + offset);
  }

  lookingAt(text: string): boolean {
    return this.src.startsWith(text, this.pos);
  }

  /** Consumes one whole code point; lone surrogates are not text RE2 could have been given. */
  nextCodePoint(): number {
    const cp = this.src.codePointAt(this.pos);
    if (cp === undefined) return this.fail('unexpected end of expression');
    if (cp >= 0xd800 && cp <= 0xdfff) this.fail('invalid UTF-8 (lone surrogate)');
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  /** Source text from `start` to the cursor, for error messages. */
  since(start: number): string {
    return this.src.slice(start, this.pos);
  }
}
