/**
 * A compact binary encoding of FileSymbols for the index: a string table, then varints, with
 * reference lines delta-coded. Pure data code: no tree-sitter here, so readers may import it.
 */
import type { FileSymbols, SourceRange, SymbolDefinition, SymbolImport, SymbolKind, SymbolReference } from '../model/symbols.js';

const KINDS: readonly SymbolKind[] = [
  'function', 'method', 'class', 'interface', 'type', 'enum', 'variable', 'constant',
  'field', 'property', 'module', 'namespace', 'macro', 'constructor', 'enumMember',
];
const KIND_CODES = new Map(KINDS.map((k, i) => [k, i]));
const ENCODING_VERSION = 1;

class Writer {
  private bytes = new Uint8Array(256);
  length = 0;
  uint(value: number): void {
    if (this.length + 10 > this.bytes.length) this.grow(10);
    let v = value;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.bytes[this.length++] = v;
  }
  raw(data: Uint8Array): void {
    this.uint(data.length);
    if (this.length + data.length > this.bytes.length) this.grow(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
  }
  finish(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
  private grow(need: number): void {
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.length + need));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
}

class Reader {
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {}
  uint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = this.bytes[this.pos++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
  }
  raw(): Uint8Array {
    const n = this.uint();
    this.pos += n;
    return this.bytes.subarray(this.pos - n, this.pos);
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeFileSymbols(symbols: FileSymbols): Uint8Array {
  const strings = new Map<string, number>();
  const id = (s: string): number => {
    let i = strings.get(s);
    if (i === undefined) strings.set(s, (i = strings.size));
    return i;
  };
  const body = new Writer();
  const range = (r: SourceRange): void => {
    body.uint(r.startLine);
    body.uint(r.startColumn);
    body.uint(r.endLine - r.startLine);
    body.uint(r.endColumn);
  };
  body.uint(symbols.definitions.length);
  for (const d of symbols.definitions) {
    body.uint(id(d.name));
    body.uint((KIND_CODES.get(d.kind)! << 1) | (d.exported ? 1 : 0));
    body.uint(d.parent + 1);
    range(d.nameRange);
    range(d.range);
  }
  body.uint(symbols.references.length);
  let line = 0;
  for (const r of symbols.references) {
    body.uint(id(r.name));
    body.uint(r.range.startLine - line);
    line = r.range.startLine;
    body.uint(r.range.startColumn);
    body.uint(r.range.endLine - r.range.startLine);
    body.uint(r.range.endColumn);
    body.uint(r.scope + 1);
    body.uint(r.receiver === undefined ? 0 : id(r.receiver) + 1);
  }
  body.uint(symbols.imports.length);
  for (const i of symbols.imports) {
    body.uint(id(i.localName));
    body.uint(id(i.importedName));
    body.uint(id(i.source));
    range(i.range);
  }
  const out = new Writer();
  out.uint(ENCODING_VERSION);
  out.raw(encoder.encode(symbols.language));
  out.raw(encoder.encode([...strings.keys()].join('\n')));
  out.raw(body.finish());
  return out.finish();
}

export function decodeFileSymbols(bytes: Uint8Array): FileSymbols {
  const head = new Reader(bytes);
  if (head.uint() !== ENCODING_VERSION) throw new RangeError('unknown symbol encoding');
  const language = decoder.decode(head.raw());
  const strings = decoder.decode(head.raw()).split('\n');
  const r = new Reader(head.raw());
  const range = (): SourceRange => {
    const startLine = r.uint();
    const startColumn = r.uint();
    return { startLine, startColumn, endLine: startLine + r.uint(), endColumn: r.uint() };
  };
  const definitions: SymbolDefinition[] = Array.from({ length: r.uint() }, () => {
    const name = strings[r.uint()]!;
    const kind = r.uint();
    return { name, kind: KINDS[kind >> 1]!, parent: r.uint() - 1, nameRange: range(), range: range(), exported: (kind & 1) === 1 };
  });
  let line = 0;
  const references: SymbolReference[] = Array.from({ length: r.uint() }, () => {
    const name = strings[r.uint()]!;
    line += r.uint();
    const startColumn = r.uint();
    const endLine = line + r.uint();
    const refRange = { startLine: line, startColumn, endLine, endColumn: r.uint() };
    const scope = r.uint() - 1;
    const receiver = r.uint();
    return receiver === 0 ? { name, range: refRange, scope } : { name, range: refRange, scope, receiver: strings[receiver - 1]! };
  });
  const imports: SymbolImport[] = Array.from({ length: r.uint() }, () => ({
    localName: strings[r.uint()]!, importedName: strings[r.uint()]!, source: strings[r.uint()]!, range: range(),
  }));
  return { language, definitions, references, imports };
}
