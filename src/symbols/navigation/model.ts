/**
 * Code navigation's own vocabulary: where a definition is, how sure a resolution is, and the file a
 * usage sits in. Plain data over the symbol tables of model/symbols.ts; no parsing here.
 */
import type { FileSymbols, SymbolDefinition, SymbolReference } from '../../model/symbols.js';

/**
 * How a usage reached a definition, most certain first (the order ranks candidates). `typed`: a
 * member of the type its receiver is declared with.
 */
export const CERTAINTIES = ['local', 'file', 'import', 'typed', 'repo-exported', 'repo', 'other-repo'] as const;
export type Certainty = (typeof CERTAINTIES)[number];

export function certaintyRank(certainty: Certainty): number {
  return CERTAINTIES.indexOf(certainty);
}

/** A file whose symbols are known, at a commit: an indexed file or one parsed on demand. */
export interface NavFile {
  readonly repo: string;
  readonly commit: string;
  readonly path: string;
  readonly symbols: FileSymbols;
}

export interface DefinitionSite {
  readonly file: NavFile;
  /** Index into file.symbols.definitions. */
  readonly index: number;
  readonly definition: SymbolDefinition;
}

export interface RankedDefinition {
  readonly site: DefinitionSite;
  readonly certainty: Certainty;
  /** Tie-break within one certainty: higher is closer (same directory, qualifier, exported …). */
  readonly score: number;
}

/** An occurrence of a name in a file: a reference, or a definition's own name (`self` is its index). */
export interface Usage {
  readonly name: string;
  readonly scope: number;
  readonly receiver?: string;
  readonly line: number;
  readonly self?: number;
  /** The target of an assignment (`a.b = …`): of an accessor pair, the setter. */
  readonly assigned?: true;
}

export function usageOfReference(reference: SymbolReference): Usage {
  const base: Usage = { name: reference.name, scope: reference.scope, line: reference.range.startLine, ...(reference.assigned === true ? { assigned: true } : {}) };
  return reference.receiver === undefined ? base : { ...base, receiver: reference.receiver };
}

/** Identity of a definition across calls: repo, path and the name's start. */
export function siteKey(site: DefinitionSite): string {
  const { nameRange } = site.definition;
  return `${site.file.repo}\0${site.file.path}\0${nameRange.startLine}:${nameRange.startColumn}`;
}
