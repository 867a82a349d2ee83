/**
 * The trigram the index stores and the planner asks for: three bytes of UTF-8, exactly as they
 * are (case included, as codesearch and Zoekt do), packed into 24 bits. Case-insensitive queries
 * ask for every case variant instead. Index build and query planning must agree on this.
 */

export function packTrigram(a: number, b: number, c: number): number {
  return (a << 16) | (b << 8) | c;
}

export function trigramToString(trigram: number): string {
  const bytes = [(trigram >> 16) & 0xff, (trigram >> 8) & 0xff, trigram & 0xff];
  return bytes.map((b) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
}

/**
 * A boolean query over trigrams: documents that may match are those the query accepts. `near` is
 * an AND whose args are the trigrams of one contiguous string, args[i] starting at byte i (a `tri`,
 * or an `or` of its case variants): an index that knows where trigrams occur can ask for them together.
 */
export type TrigramQuery =
  | { readonly op: 'all' }
  | { readonly op: 'none' }
  | { readonly op: 'tri'; readonly trigram: number }
  | { readonly op: 'and'; readonly args: readonly TrigramQuery[] }
  | { readonly op: 'or'; readonly args: readonly TrigramQuery[] }
  | { readonly op: 'near'; readonly args: readonly TrigramQuery[] };

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
    case 'near':
      return `(${q.op} ${q.args.map(trigramQueryToString).join(' ')})`;
  }
}
