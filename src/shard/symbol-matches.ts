/**
 * Definitions of a file's symbol table as the results carry them: Sourcegraph's kind names, the
 * container's name, and which definitions a content match hits. Pure functions over plain data.
 */
import type { LineMatch, SymbolKindName, SymbolMatch } from '../model/result.js';
import type { FileSymbols, SymbolKind } from '../model/symbols.js';

/** Sourcegraph's ctags-to-LSP table: types count as classes, macros as functions. */
const KIND_NAMES: Record<SymbolKind, SymbolKindName> = {
  function: 'FUNCTION', method: 'METHOD', class: 'CLASS', interface: 'INTERFACE', type: 'CLASS', enum: 'ENUM',
  variable: 'VARIABLE', constant: 'CONSTANT', field: 'FIELD', property: 'PROPERTY', module: 'MODULE',
  namespace: 'NAMESPACE', macro: 'FUNCTION', constructor: 'CONSTRUCTOR', enumMember: 'ENUMMEMBER',
};

export function kindName(kind: SymbolKind): SymbolKindName {
  return KIND_NAMES[kind];
}

export function symbolMatch(table: FileSymbols, index: number): SymbolMatch {
  const d = table.definitions[index]!;
  return {
    name: d.name,
    containerName: d.parent >= 0 ? table.definitions[d.parent]!.name : null,
    kind: KIND_NAMES[d.kind],
    language: table.language,
    exported: d.exported,
    range: d.nameRange,
  };
}

/** Indexes of the definitions whose name a match range overlaps, in definition order. */
export function definitionsHit(table: FileSymbols, lines: readonly LineMatch[]): number[] {
  if (lines.length === 0 || table.definitions.length === 0) return [];
  const byLine = new Map(lines.map((l) => [l.lineNumber, l]));
  const hit: number[] = [];
  table.definitions.forEach((d, i) => {
    const line = byLine.get(d.nameRange.startLine);
    if (!line) return;
    const end = d.nameRange.endLine === d.nameRange.startLine ? d.nameRange.endColumn : Infinity;
    const units = utf16Offsets(line.line);
    const overlaps = line.offsetAndLengths.some(([offset, length]) => {
      const start = units(offset);
      const stop = units(offset + length);
      return start < end && stop > d.nameRange.startColumn;
    });
    if (overlaps) hit.push(i);
  });
  return hit;
}

/** Line matches count code points, symbol columns UTF-16 units: they differ only past astral characters. */
function utf16Offsets(line: string): (codePoint: number) => number {
  if (!/[\uD800-\uDFFF]/.test(line)) return (codePoint) => codePoint;
  const starts: number[] = [];
  let unit = 0;
  for (const ch of line) {
    starts.push(unit);
    unit += ch.length;
  }
  starts.push(unit);
  return (codePoint) => starts[Math.min(codePoint, starts.length - 1)]!;
}
