/**
 * `FileMatch.symbols` and Sourcegraph's Symbol, Location and Range types over the symbol matches a
 * search carries (`type:symbol`, `select:symbol`). Lines and characters are 0-based.
 */
import type { FileMatch, SymbolMatch } from '../../model/result.js';
import { symbolUrl } from '../../search/symbol-results.js';
import type { BlobParent, FileMatchParent, Resolvers } from './resolver-kit.js';
import type { RepoInfo } from './services.js';

interface SymbolParent {
  readonly symbol: SymbolMatch;
  readonly file: FileMatch;
  readonly repo: RepoInfo;
}

export const symbolResolvers: Resolvers = {
  FileMatch: {
    symbols: (p: FileMatchParent): SymbolParent[] => (p.match.symbols ?? []).map((symbol) => ({ symbol, file: p.match, repo: p.repo })),
  },
  Symbol: {
    name: (p: SymbolParent) => p.symbol.name,
    containerName: (p: SymbolParent) => p.symbol.containerName,
    kind: (p: SymbolParent) => p.symbol.kind,
    language: (p: SymbolParent) => p.symbol.language,
    location: (p: SymbolParent) => p,
    url: (p: SymbolParent) => symbolUrl(p.file, p.symbol),
    canonicalURL: (p: SymbolParent) => symbolUrl(p.file, p.symbol),
    fileLocal: (p: SymbolParent) => !p.symbol.exported,
  },
  Location: {
    resource: (p: SymbolParent): BlobParent => ({ repo: p.repo, oid: p.file.commit, path: p.file.path }),
    range: (p: SymbolParent) => {
      const r = p.symbol.range;
      return { start: { line: r.startLine, character: r.startColumn }, end: { line: r.endLine, character: r.endColumn } };
    },
    url: (p: SymbolParent) => symbolUrl(p.file, p.symbol),
    canonicalURL: (p: SymbolParent) => symbolUrl(p.file, p.symbol),
  },
};
