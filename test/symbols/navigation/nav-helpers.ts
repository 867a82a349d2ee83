/** Test helpers: run navigation over a SymbolIndex and render locations as `repo path:line` (1-based). */
import type { SymbolIndex } from '../../../src/model/symbols.js';
import { findDefinition, parseSymbolName, type UsagePosition } from '../../../src/symbols/navigation/definition.js';
import { SymbolLookup } from '../../../src/symbols/navigation/lookup.js';
import type { DefinitionSite, NavFile } from '../../../src/symbols/navigation/model.js';
import { findReferences } from '../../../src/symbols/navigation/references.js';
import { Resolver } from '../../../src/symbols/navigation/resolve.js';
import { FAKE_COMMIT } from '../fake-symbol-index.js';

export const everyone = (): boolean => true;

export function siteLabel(site: DefinitionSite): string {
  return `${site.file.repo} ${site.file.path}:${site.definition.nameRange.startLine + 1}`;
}

function originOf(index: SymbolIndex, repo: string, path: string): NavFile {
  const symbols = index.fileSymbols(repo, path);
  if (symbols === null) throw new Error(`no symbols for ${repo} ${path}`);
  return { repo, commit: FAKE_COMMIT, path, symbols };
}

/** The best definition's label, or null; `also` lists the alternatives. */
export function definitionOf(index: SymbolIndex, repo: string, path: string, symbol: string, canRead: (repo: string) => boolean = everyone, position?: UsagePosition): { best: string | null; also: string[] } {
  const resolver = new Resolver(new SymbolLookup(index, canRead));
  const answer = findDefinition(resolver, originOf(index, repo, path), parseSymbolName(symbol)!, position);
  return { best: answer === null ? null : siteLabel(answer.best.site), also: answer?.alternatives.map((a) => siteLabel(a.site)) ?? [] };
}

/** References (`repo path:line`) of what `symbol` in the file resolves to. */
export function referencesOf(index: SymbolIndex, repo: string, path: string, symbol: string, canRead: (repo: string) => boolean = everyone): string[] {
  const resolver = new Resolver(new SymbolLookup(index, canRead));
  const answer = findDefinition(resolver, originOf(index, repo, path), parseSymbolName(symbol)!);
  if (answer === null) throw new Error(`${symbol} not found`);
  return findReferences(resolver, answer.best.site).sites.map((r) => `${r.file.repo} ${r.file.path}:${r.range.startLine + 1}`);
}
