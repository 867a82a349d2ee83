/**
 * A hub and the file that answers: a long central class whose accessors name every term of
 * HUB_QUERY far apart, and a short file that does what the query asks. BM25 alone prefers the hub.
 */

const filler = (n: number): string[] => Array.from({ length: n }, (_, i) => `  const step${i} = next(step${i});`);

/** A central class with accessors naming every term, far apart in a long file. */
export const HUB_LINES = [
  'export class Document {', ...filler(150),
  '  escapeMode(): EscapeMode { return this.settings.escapeMode; }', ...filler(150),
  '  charset(): Charset { return this.settings.charset; }', ...filler(150),
  '  outputSettings(): OutputSettings { return this.settings; }', ...filler(150),
  '  escapeEntities(on: boolean): void { this.settings.escapeEntities = on; }',
  '  outputCharset(): Charset { return this.settings.output.charset; }', ...filler(100),
  '  // entities are escaped on output by the encoder',
  '  text(): string { return escape(this.html(), this.charset()); }',
  '}',
];

/** The short file that does the escaping. */
export const ENCODER_LINES = [
  '// Escapes text into HTML entities for the output charset.',
  'export function encode(text: string, charset: Charset, mode: EscapeMode): string {',
  '  let out = "";',
  '  for (const c of text) out += charset.canEncode(c) ? c : entityFor(c, mode);',
  '  return out;',
  '}',
];

export const HUB_QUERY = 'where is text escaped into entities on output for the charset';
