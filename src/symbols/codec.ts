/**
 * A compact binary encoding of FileSymbols for the index: a string table, then varints. References
 * are grouped by name behind a directory, so one name's references (what find_references reads in
 * thousands of files) come out without decoding the rest. Pure data code: no tree-sitter here.
 */
import type { FileSymbols, ImportMentions, SourceRange, SymbolDefinition, SymbolImport, SymbolKind, SymbolReference } from '../model/symbols.js';
import { Reader, Writer } from '../model/varint.js';

const KINDS: readonly SymbolKind[] = [
  'function', 'method', 'class', 'interface', 'type', 'enum', 'variable', 'constant',
  'field', 'property', 'module', 'namespace', 'macro', 'constructor', 'enumMember',
];
const KIND_CODES = new Map(KINDS.map((k, i) => [k, i]));
/** Version 4 adds the assigned flag to each reference's scope (scope + 1) << 1 | assigned; version 3 tables are still read. */
const ENCODING_VERSION = 4;
const UNFLAGGED_VERSION = 3;
/** Directory entry: the name's byte offset in the string table, count << 1 | defines-the-name, start in the data block. */
const ENTRY_BYTES = 12;

const encoder = new TextEncoder();

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
    definitions.uint((KIND_CODES.get(d.kind)! << 2) | (d.type === undefined ? 0 : 2) | (d.exported ? 1 : 0));
    if (d.type !== undefined) definitions.uint(strings.id(d.type));
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
      data.uint(((r.scope + 1) << 1) | (r.assigned === true ? 1 : 0));
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

/**
 * Where an encoded table's sections lie: offsets into one Buffer over its bytes, so that reading a
 * name's references (find_references does it in thousands of files) makes no further views.
 */
interface Layout {
  readonly bytes: Buffer;
  /** The references carry the assigned flag (version 4 on). */
  readonly flagged: boolean;
  readonly language: string;
  readonly strings: number;
  readonly stringsEnd: number;
  readonly imports: number;
  readonly definitions: number;
  readonly directory: number;
  readonly directoryEnd: number;
  readonly data: number;
}

function layout(input: Uint8Array): Layout {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const r = new Reader(bytes);
  const version = r.uint();
  if (version !== ENCODING_VERSION && version !== UNFLAGGED_VERSION) throw new RangeError('unknown symbol encoding');
  const section = (): number => {
    const length = r.uint();
    r.pos += length;
    return r.pos - length;
  };
  const languageStart = section();
  const language = bytes.toString('utf8', languageStart, r.pos);
  const strings = section();
  const stringsEnd = r.pos;
  const imports = section();
  const definitions = section();
  const directory = section();
  const directoryEnd = r.pos;
  return { bytes, flagged: version === ENCODING_VERSION, language, strings, stringsEnd, imports, definitions, directory, directoryEnd, data: section() };
}

export function decodeFileSymbols(input: Uint8Array): FileSymbols {
  const l = layout(input);
  const strings = l.bytes.toString('utf8', l.strings, l.stringsEnd).split('\n');
  const byOffset = new Map<number, string>();
  let offset = 0;
  for (const text of strings) {
    byOffset.set(offset, text);
    offset += Buffer.byteLength(text) + 1;
  }
  const d = new Reader(l.bytes, l.definitions);
  const definitions: SymbolDefinition[] = Array.from({ length: d.uint() }, () => {
    const name = strings[d.uint()]!;
    const flags = d.uint();
    const type = (flags & 2) === 0 ? undefined : strings[d.uint()]!;
    const base = { name, kind: KINDS[flags >> 2]!, parent: d.uint() - 1, nameRange: readRange(d), range: readRange(d), exported: (flags & 1) === 1 };
    return type === undefined ? base : { ...base, type };
  });
  const references: SymbolReference[] = [];
  for (let n = 0; n < entryCount(l); n++) {
    const entry = entryAt(l, n);
    readGroup(l, entry, byOffset.get(entry.nameOffset)!, (o, len) => byOffset.get(o) ?? stringAt(l, o, len), references);
  }
  references.sort((a, b) => a.range.startLine - b.range.startLine || a.range.startColumn - b.range.startColumn);
  return { language: l.language, definitions, references, imports: readImports(l, strings, null) };
}

/** A name as the decoders below look it up in a file's string table: encode it once per scan. */
export interface NameNeedle {
  readonly name: string;
  readonly bytes: Buffer;
}

export function nameNeedle(name: string): NameNeedle {
  return { name, bytes: Buffer.from(`${name}\n`) };
}

/** What a ReferenceGroup says of a file before its references are built. */
export interface ReferenceHead {
  readonly language: string;
  readonly definesName: boolean;
  readonly count: number;
  readonly receivers: readonly (string | undefined)[];
  readonly imports: readonly SymbolImport[];
}

/**
 * The file's references named like the needle, counted, with their receivers and the file's
 * imports; null when none. Imports none of whose strings contains one of `mentions` are not built.
 */
export function decodeReferenceHead(input: Uint8Array, needle: NameNeedle, mentions: ImportMentions = () => null): ReferenceHead | null {
  const l = layout(input);
  const entry = findEntry(l, needle);
  if (entry === null) return null;
  const receivers = groupReceivers(l, entry);
  return { language: l.language, definesName: entry.definesName, count: entry.count, receivers, imports: readImports(l, null, mentions(l.language, receivers)) };
}

/**
 * The language and imports of the imports-only encoding (batch.ts), imports as decodeReferenceHead
 * leaves them for references with these receivers.
 */
export function decodeLanguageAndImports(input: Uint8Array, mentions: ImportMentions, receivers: readonly (string | undefined)[]): { language: string; imports: readonly SymbolImport[] } {
  const l = layout(input);
  return { language: l.language, imports: readImports(l, null, mentions(l.language, receivers), true) };
}

/** The file's references named like the needle, in line order. */
export function decodeNamedReferences(input: Uint8Array, needle: NameNeedle): SymbolReference[] {
  const l = layout(input);
  const entry = findEntry(l, needle);
  const references: SymbolReference[] = [];
  if (entry !== null) readGroup(l, entry, needle.name, (o, len) => stringAt(l, o, len), references);
  return references;
}

function findEntry(l: Layout, needle: NameNeedle): Entry | null {
  const nameOffset = findString(l, needle.bytes);
  if (nameOffset < 0) return null;
  let lo = 0;
  let hi = entryCount(l) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = l.bytes.readUInt32LE(l.directory + mid * ENTRY_BYTES);
    if (at < nameOffset) lo = mid + 1;
    else if (at > nameOffset) hi = mid - 1;
    else return entryAt(l, mid);
  }
  return null;
}

interface Entry {
  readonly nameOffset: number;
  readonly count: number;
  readonly definesName: boolean;
  /** The group's first byte in the bytes (not the data section). */
  readonly start: number;
}

function entryCount(l: Layout): number {
  return (l.directoryEnd - l.directory) / ENTRY_BYTES;
}

function entryAt(l: Layout, n: number): Entry {
  const at = l.directory + n * ENTRY_BYTES;
  const counted = l.bytes.readUInt32LE(at + 4);
  return { nameOffset: l.bytes.readUInt32LE(at), count: counted >>> 1, definesName: (counted & 1) === 1, start: l.data + l.bytes.readUInt32LE(at + 8) };
}

function readGroup(l: Layout, entry: Entry, name: string, receiverAt: (offset: number, length: number) => string, out: SymbolReference[]): void {
  const r = new Reader(l.bytes, entry.start);
  let line = 0;
  for (let i = 0; i < entry.count; i++) {
    line += r.uint();
    const startColumn = r.uint();
    const endLine = line + r.uint();
    const range = { startLine: line, startColumn, endLine, endColumn: r.uint() };
    const scoped = r.uint();
    const scope = (l.flagged ? scoped >>> 1 : scoped) - 1;
    const receiver = r.uint();
    const reference: SymbolReference = receiver === 0 ? { name, range, scope } : { name, range, scope, receiver: receiverAt(receiver - 1, r.uint()) };
    out.push(l.flagged && (scoped & 1) === 1 ? { ...reference, assigned: true } : reference);
  }
}

/** The group's distinct receivers, without building its references. */
function groupReceivers(l: Layout, entry: Entry): (string | undefined)[] {
  const r = new Reader(l.bytes, entry.start);
  let bare = false;
  let byOffset: Map<number, string> | null = null;
  for (let i = 0; i < entry.count; i++) {
    r.skip(5);
    const receiver = r.uint();
    if (receiver === 0) bare = true;
    else {
      const length = r.uint();
      byOffset ??= new Map();
      if (!byOffset.has(receiver)) byOffset.set(receiver, stringAt(l, receiver - 1, length));
    }
  }
  const named = byOffset === null ? [] : [...byOffset.values()];
  return bare ? [undefined, ...named] : named;
}

/** Varint scratch for readImports: its ids are consumed before it returns. */
let importIds = new Uint32Array(1024);

/**
 * Import strings lead the table, so one decode of that prefix names them all; `wholeTable`: the
 * table holds nothing else (the imports-only encoding), so no id needs reading to bound it. With
 * `mentions`, only imports one of whose strings contains a mention are built.
 */
function readImports(l: Layout, strings: readonly string[] | null, mentions: readonly string[] | null, wholeTable = false): SymbolImport[] {
  const r = new Reader(l.bytes, l.imports);
  const length = r.uint() * 7;
  if (length === 0) return [];
  const mentioningIn = (text: string): ReadonlySet<number> | null => (mentions === null ? null : mentioningStrings(text, mentions));
  // A table of import strings alone is read whole: most files then mention nothing and are done before any id is read.
  let text = strings === null && wholeTable ? l.bytes.toString('utf8', l.strings, l.stringsEnd - 1) : null;
  let mentioning = text === null ? null : mentioningIn(text);
  if (mentioning?.size === 0) return [];
  if (importIds.length < length) importIds = new Uint32Array(length * 2);
  const ids = importIds;
  let needed = 0;
  for (let i = 0; i < length; i++) {
    ids[i] = r.uint();
    if (i % 7 < 3 && ids[i]! > needed) needed = ids[i]!;
  }
  if (strings === null && text === null) {
    text = leadingStrings(l, needed + 1);
    mentioning = mentioningIn(text);
    if (mentioning?.size === 0) return [];
  }
  const table = strings ?? text!.split('\n');
  const out: SymbolImport[] = [];
  for (let i = 0; i < length; i += 7) {
    if (mentioning && !mentioning.has(ids[i]!) && !mentioning.has(ids[i + 1]!) && !mentioning.has(ids[i + 2]!)) continue;
    const startLine = ids[i + 3]!;
    const range = { startLine, startColumn: ids[i + 4]!, endLine: startLine + ids[i + 5]!, endColumn: ids[i + 6]! };
    out.push({ localName: table[ids[i]!]!, importedName: table[ids[i + 1]!]!, source: table[ids[i + 2]!]!, range });
  }
  return out;
}

/** The table's first `count` strings, as one newline-separated text. */
function leadingStrings(l: Layout, count: number): string {
  let end = l.strings - 1;
  for (let n = 0; n < count; n++) end = l.bytes.indexOf(10, end + 1);
  return l.bytes.toString('utf8', l.strings, end);
}

const mentionPatterns = new WeakMap<readonly string[], RegExp | null>();

/** One pattern finding any of the mentions; null when one is empty (it is in every string). */
function mentionPattern(mentions: readonly string[]): RegExp | null {
  let pattern = mentionPatterns.get(mentions);
  if (pattern === undefined) {
    pattern = mentions.some((m) => m === '') ? null : new RegExp(mentions.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
    mentionPatterns.set(mentions, pattern);
  }
  return pattern;
}

/** Ids of the newline-separated strings of `text` containing a mention, in one pass; null: all of them. */
function mentioningStrings(text: string, mentions: readonly string[]): ReadonlySet<number> | null {
  const ids = new Set<number>();
  if (mentions.length === 0) return ids;
  const pattern = mentionPattern(mentions);
  if (pattern === null) return null;
  let id = 0;
  let next = text.indexOf('\n');
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    for (; next !== -1 && next < match.index; next = text.indexOf('\n', next + 1)) id++;
    ids.add(id);
  }
  return ids;
}

function stringAt(l: Layout, offset: number, length: number): string {
  return l.bytes.toString('utf8', l.strings + offset, l.strings + offset + length);
}

/** Offset of `name` in the string table as a whole entry of it, or -1. */
function findString(l: Layout, needle: Buffer): number {
  for (let at = l.bytes.indexOf(needle, l.strings); at >= 0 && at < l.stringsEnd; at = l.bytes.indexOf(needle, at + 1)) {
    if (at === l.strings || l.bytes[at - 1] === 10) return at - l.strings;
  }
  return -1;
}
