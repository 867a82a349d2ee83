/**
 * The trigram the index stores and the planner asks for: three bytes of UTF-8, ASCII letters
 * folded to lower case, packed into 24 bits. Index build and query planning must agree on this.
 */

/** ASCII upper-case letters fold to lower case; every other byte is itself. */
export function foldByte(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
}

export function packTrigram(a: number, b: number, c: number): number {
  return (foldByte(a) << 16) | (foldByte(b) << 8) | foldByte(c);
}

export function trigramToString(trigram: number): string {
  const bytes = [(trigram >> 16) & 0xff, (trigram >> 8) & 0xff, trigram & 0xff];
  return bytes.map((b) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
}

/** A boolean query over trigrams: documents that may match are those the query accepts. */
export type TrigramQuery =
  | { readonly op: 'all' }
  | { readonly op: 'none' }
  | { readonly op: 'tri'; readonly trigram: number }
  | { readonly op: 'and'; readonly args: readonly TrigramQuery[] }
  | { readonly op: 'or'; readonly args: readonly TrigramQuery[] };

export const MATCH_ALL: TrigramQuery = Object.freeze({ op: 'all' });
export const MATCH_NONE: TrigramQuery = Object.freeze({ op: 'none' });

export function trigramQueryToString(q: TrigramQuery): string {
  switch (q.op) {
    case 'all':
      return '+';
    case 'none':
      return '-';
    case 'tri':
      return `"${trigramToString(q.trigram)}"`;
    case 'and':
    case 'or':
      return `(${q.op} ${q.args.map(trigramQueryToString).join(' ')})`;
  }
}
