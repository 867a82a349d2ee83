/**
 * Blanks attribute-like macros (`__always_inline`, `__printf(1, 2)`) out of C-family source before
 * tree-sitter parses it, as universal-ctags' `-I` list does. Never changes a length or a newline.
 */

/** An entry ending in `()` is only blanked with its balanced, same-line parenthesised argument. */
const CALLED = '()';

export type SourceBlanker = (text: string) => string;

/**
 * Every blanked code unit becomes a space, so offsets, lines and columns of everything else are
 * those of the original text. Matches are whole words; preprocessor lines are left alone so
 * `#define __init …` still defines `__init`. Strings and comments are not told apart: blanking a
 * word there hides nothing a symbol table needs.
 */
export function attributeMacroBlanker(macros: readonly string[]): SourceBlanker {
  const called = new Set(macros.filter((m) => m.endsWith(CALLED)).map((m) => m.slice(0, -CALLED.length)));
  const words = macros.map((m) => (m.endsWith(CALLED) ? m.slice(0, -CALLED.length) : m));
  const pattern = new RegExp(String.raw`^[ \t]*#.*|(?<![\w$])(${words.join('|')})(?![\w$])`, 'gm');
  return (text) => {
    let out = '';
    let copied = 0;
    for (const match of text.matchAll(pattern)) {
      const name = match[1];
      const start = match.index!;
      // A name inside an argument already blanked (`__attribute__((__aligned(8)))`).
      if (name === undefined || start < copied) continue;
      const end = called.has(name) ? argumentEnd(text, start + name.length) : start + name.length;
      if (end < 0) continue;
      out += text.slice(copied, start) + ' '.repeat(end - start);
      copied = end;
    }
    return copied === 0 ? text : out + text.slice(copied);
  };
}

/** The offset just past the `(…)` that follows `from` on the same line, or -1 when there is none. */
function argumentEnd(text: string, from: number): number {
  let at = from;
  while (text[at] === ' ' || text[at] === '\t') at++;
  if (text[at] !== '(') return -1;
  let depth = 0;
  for (; at < text.length; at++) {
    const ch = text[at];
    if (ch === '\n') return -1;
    if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return at + 1;
  }
  return -1;
}
