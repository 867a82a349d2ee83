/**
 * A compact binary encoding of FileSymbols for the index: a string table, then varints. References
 * are grouped by name behind a directory, so one name's references (what find_references reads in
 * thousands of files) come out without decoding the rest. Pure data code: no tree-sitter here.
 */
import type { FileSymbols, NamedReferences, SourceRange, SymbolDefinition, SymbolImport, SymbolKind, SymbolReference } from '../model/symbols.js';
import { Reader, Writer } from './varint.js';

const KINDS: readonly SymbolKind[] = [
  'function', 'method', 'class', 'interface', 'type', 'enum', 'variable', 'constant',
  'field', 'property', 'module', 'namespace', 'macro', 'constructor', 'enumMember',
];
const KIND_CODES = new Map(KINDS.map((k, i) => [k, i]));
const ENCODING_VERSION = 2;
/** Directory entry: the name's byte offset in the string table, count << 1 | defines-the-name, start in the data block. */
const ENTRY_BYTES = 12;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

class StringTable {
  readonly ids = new Map<string, number>();
  readonly offsets: number[] = [];
  private bytes = 0;
  id(s: string): number {
    let i = this.ids.get(s);
    if (i === undefined) {
      i = this.ids.size;
      this.ids.set(s, i);
      this.offsets.push(this.bytes);
      this.bytes += Buffer.byteLength(s) + 1;
    }
    return i;
  }
}

export function encodeFileSymbols(symbols: FileSymbols): Uint8Array {
  const strings = new StringTable();
  // Import strings first: a reader of one name's references decodes only this prefix of the table.
  for (const i of symbols.imports) [i.localName, i.importedName, i.source].forEach((s) => strings.id(s));
  const imports = new Writer();
  imports.uint(symbols.imports.length);
  for (const i of symbols.imports) {
    imports.uint(strings.id(i.localName));
    imports.uint(strings.id(i.importedName));
    imports.uint(strings.id(i.source));
    writeRange(imports, i.range);
  }
  const definitions = new Writer();
  definitions.uint(symbols.definitions.length);
  const defined = new Set<string>();
  for (const d of symbols.definitions) {
    defined.add(d.name);
    definitions.uint(strings.id(d.name));
    definitions.uint((KIND_CODES.get(d.kind)! << 1) | (d.exported ? 1 : 0));
    definitions.uint(d.parent + 1);
    writeRange(definitions, d.nameRange);
    writeRange(definitions, d.range);
  }
  const groups = new Map<number, SymbolReference[]>();
  for (const r of symbols.references) {
    const id = strings.id(r.name);
    const group = groups.get(id);
    if (group === undefined) groups.set(id, [r]);
    else group.push(r);
  }
  const data = new Writer();
  const directory = new Uint8Array(groups.size * ENTRY_BYTES);
  const view = new DataView(directory.buffer);
  // Ids grow with offsets, so id order is offset order: the directory is sorted for binary search.
  [...groups.keys()].sort((a, b) => a - b).forEach((id, n) => {
    const group = groups.get(id)!;
    view.setUint32(n * ENTRY_BYTES, strings.offsets[id]!, true);
    view.setUint32(n * ENTRY_BYTES + 4, group.length * 2 + (defined.has(group[0]!.name) ? 1 : 0), true);
    view.setUint32(n * ENTRY_BYTES + 8, data.length, true);
    let line = 0;
    for (const r of group) {
      data.uint(r.range.startLine - line);
      line = r.range.startLine;
      data.uint(r.range.startColumn);
      data.uint(r.range.endLine - r.range.startLine);
      data.uint(r.range.endColumn);
      data.uint(r.scope + 1);
      if (r.receiver === undefined) data.uint(0);
      else {
        data.uint(strings.offsets[strings.id(r.receiver)]! + 1);
        data.uint(Buffer.byteLength(r.receiver));
      }
    }
  });
  const out = new Writer();
  out.uint(ENCODING_VERSION);
  out.raw(encoder.encode(symbols.language));
  out.raw(encoder.encode(`${[...strings.ids.keys()].join('\n')}\n`));
  out.raw(imports.finish());
  out.raw(definitions.finish());
  out.raw(directory);
  out.raw(data.finish());
  return out.finish();
}

function writeRange(w: Writer, r: SourceRange): void {
  w.uint(r.startLine);
  w.uint(r.startColumn);
  w.uint(r.endLine - r.startLine);
  w.uint(r.endColumn);
}

function readRange(r: Reader): SourceRange {
  const startLine = r.uint();
  const startColumn = r.uint();
  return { startLine, startColumn, endLine: startLine + r.uint(), endColumn: r.uint() };
}

interface Sections {
  readonly language: string;
  readonly strings: Uint8Array;
  readonly imports: Uint8Array;
  readonly definitions: Uint8Array;
  readonly directory: Uint8Array;
  readonly data: Uint8Array;
}

function sections(bytes: Uint8Array): Sections {
  const r = new Reader(bytes);
  if (r.uint() !== ENCODING_VERSION) throw new RangeError('unknown symbol encoding');
  return { language: decoder.decode(r.raw()), strings: r.raw(), imports: r.raw(), definitions: r.raw(), directory: r.raw(), data: r.raw() };
}

export function decodeFileSymbols(bytes: Uint8Array): FileSymbols {
  const s = sections(bytes);
  const strings = decoder.decode(s.strings).split('\n');
  const byOffset = new Map<number, string>();
  let offset = 0;
  for (const text of strings) {
    byOffset.set(offset, text);
    offset += Buffer.byteLength(text) + 1;
  }
  const d = new Reader(s.definitions);
  const definitions: SymbolDefinition[] = Array.from({ length: d.uint() }, () => {
    const name = strings[d.uint()]!;
    const kind = d.uint();
    return { name, kind: KINDS[kind >> 1]!, parent: d.uint() - 1, nameRange: readRange(d), range: readRange(d), exported: (kind & 1) === 1 };
  });
  const references: SymbolReference[] = [];
  const view = directoryView(s.directory);
  for (let n = 0; n < s.directory.length / ENTRY_BYTES; n++) {
    const entry = entryAt(view, n);
    readGroup(s, entry, byOffset.get(entry.nameOffset)!, (o, l) => byOffset.get(o) ?? stringAt(s.strings, o, l), references);
  }
  references.sort((a, b) => a.range.startLine - b.range.startLine || a.range.startColumn - b.range.startColumn);
  return { language: s.language, definitions, references, imports: readImports(s.imports, (id) => strings[id]!) };
}

/** The references named `name`, with the file's imports; null when the file has none by that name. */
export function decodeNamedReferences(bytes: Uint8Array, name: string): NamedReferences | null {
  const s = sections(bytes);
  const nameOffset = findString(s.strings, name);
  if (nameOffset < 0) return null;
  const view = directoryView(s.directory);
  let lo = 0;
  let hi = s.directory.length / ENTRY_BYTES - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const entry = entryAt(view, mid);
    if (entry.nameOffset < nameOffset) lo = mid + 1;
    else if (entry.nameOffset > nameOffset) hi = mid - 1;
    else {
      const references: SymbolReference[] = [];
      readGroup(s, entry, name, (o, l) => stringAt(s.strings, o, l), references);
      return { language: s.language, definesName: entry.definesName, references, imports: readImports(s.imports, prefixStrings(s.strings)) };
    }
  }
  return null;
}

interface Entry {
  readonly nameOffset: number;
  readonly count: number;
  readonly definesName: boolean;
  readonly start: number;
  readonly end: number;
}

function directoryView(directory: Uint8Array): DataView {
  return new DataView(directory.buffer, directory.byteOffset, directory.byteLength);
}

function entryAt(view: DataView, n: number): Entry {
  const at = n * ENTRY_BYTES;
  const counted = view.getUint32(at + 4, true);
  const end = at + ENTRY_BYTES < view.byteLength ? view.getUint32(at + ENTRY_BYTES + 8, true) : -1;
  return { nameOffset: view.getUint32(at, true), count: counted >>> 1, definesName: (counted & 1) === 1, start: view.getUint32(at + 8, true), end };
}

function readGroup(s: Sections, entry: Entry, name: string, receiverAt: (offset: number, length: number) => string, out: SymbolReference[]): void {
  const r = new Reader(s.data.subarray(entry.start, entry.end < 0 ? s.data.length : entry.end));
  let line = 0;
  for (let i = 0; i < entry.count; i++) {
    line += r.uint();
    const startColumn = r.uint();
    const endLine = line + r.uint();
    const range = { startLine: line, startColumn, endLine, endColumn: r.uint() };
    const scope = r.uint() - 1;
    const receiver = r.uint();
    out.push(receiver === 0 ? { name, range, scope } : { name, range, scope, receiver: receiverAt(receiver - 1, r.uint()) });
  }
}

function readImports(block: Uint8Array, string: (id: number) => string): SymbolImport[] {
  const r = new Reader(block);
  return Array.from({ length: r.uint() }, () => ({ localName: string(r.uint()), importedName: string(r.uint()), source: string(r.uint()), range: readRange(r) }));
}

/** Strings by id, splitting the table only as far as the highest id asked for. */
function prefixStrings(table: Uint8Array): (id: number) => string {
  const found: string[] = [];
  let at = 0;
  return (id) => {
    while (found.length <= id) {
      const end = table.indexOf(10, at);
      found.push(decoder.decode(table.subarray(at, end)));
      at = end + 1;
    }
    return found[id]!;
  };
}

function stringAt(table: Uint8Array, offset: number, length: number): string {
  return decoder.decode(table.subarray(offset, offset + length));
}

/** Byte offset of `name` as a whole entry of the newline-terminated table, or -1. */
function findString(table: Uint8Array, name: string): number {
  const needle = Buffer.from(`${name}\n`);
  const hay = Buffer.from(table.buffer, table.byteOffset, table.byteLength);
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    if (at === 0 || hay[at - 1] === 10) return at;
  }
  return -1;
}
