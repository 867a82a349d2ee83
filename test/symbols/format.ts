/** Renders FileSymbols as short lines so language tests can assert every definition and reference exactly. */
import type { FileSymbols } from '../../src/model/symbols.js';

/** `name kind parent@line:col [exported]`, parent by name (or `-`). */
export function definitionLines(symbols: FileSymbols): string[] {
  return symbols.definitions.map((d) => {
    const parent = d.parent >= 0 ? symbols.definitions[d.parent]!.name : '-';
    return `${d.name} ${d.kind} ${parent}@${d.nameRange.startLine}:${d.nameRange.startColumn}${d.exported ? ' exported' : ''}${d.type === undefined ? '' : ` : ${d.type}`}`;
  });
}

/** `receiver.name@line:col<scope name>`. */
export function referenceLines(symbols: FileSymbols): string[] {
  return symbols.references.map((r) => {
    const scope = r.scope >= 0 ? symbols.definitions[r.scope]!.name : '-';
    return `${r.receiver !== undefined ? `${r.receiver}.` : ''}${r.name}@${r.range.startLine}:${r.range.startColumn}<${scope}>`;
  });
}

export function importLines(symbols: FileSymbols): string[] {
  return symbols.imports.map((i) => `${i.localName}=${i.importedName} from ${i.source}`);
}
