/**
 * Quarry as the navigation tool under test: the fetched projects indexed by the real engine
 * (indexed-corpus.ts), then go_to_definition's and find_references' own engine calls
 * (startNavigation, findDefinition, findReferences) made as a site admin, exactly as the tools make them.
 */
import { ToolError } from '../../src/api/mcp/tool.js';
import { startNavigation } from '../../src/api/mcp/tools/nav-origin.js';
import { findDefinition, parseSymbolName } from '../../src/symbols/navigation/definition.js';
import { findReferences, type ReferenceSite } from '../../src/symbols/navigation/references.js';
import { indexCorpus, projectOf, repoOf } from './indexed-corpus.js';
import type { ProjectLine, RealReferenceSet, RealUsage } from './labels.js';


export const NO_REFERENCES: FoundReferences = { claimed: [], nameMatches: [] };

export interface FoundReferences {
  readonly claimed: readonly string[];
  readonly nameMatches: readonly string[];
}

/** What a tool answered for one usage: an in-project line, "defined outside", or nothing. */
export type DefinitionAnswer = { readonly project: string; readonly at: ProjectLine } | { readonly external: true } | { readonly error: string } | null;

export interface NavigationUnderTest {
  readonly name: string;
  definitionOf(usage: RealUsage, withPosition: boolean): Promise<DefinitionAnswer>;
  /**
   * Each reference as `project/path:line`, so a hit in another project counts against precision:
   * the ones the tool claims, and the same-named uses it lists apart as unresolved (name matches).
   */
  referencesOf(set: RealReferenceSet): Promise<FoundReferences>;
  close(): Promise<void>;
}

export async function openQuarry(corpus: string, projects: readonly string[], log: (line: string) => void): Promise<NavigationUnderTest> {
  const { services, ctx } = await indexCorpus(corpus, projects, log);
  const definitionOf = async (usage: RealUsage, withPosition: boolean): Promise<DefinitionAnswer> => {
    const start = await startNavigation(ctx, { repo: repoOf(usage.project), path: usage.path, symbol: usage.name });
    const position = withPosition ? { line: usage.line, column: usage.column } : undefined;
    const answer = findDefinition(start.resolver, start.origin, parseSymbolName(usage.name)!, position);
    if (answer === null) return null;
    const { file, definition } = answer.best.site;
    return { project: projectOf(file.repo), at: { path: file.path, line: definition.nameRange.startLine + 1 } };
  };
  const referencesOf = async (set: RealReferenceSet): Promise<FoundReferences> => {
    const start = await startNavigation(ctx, { repo: repoOf(set.project), path: set.definition.path, symbol: set.name });
    const answer = findDefinition(start.resolver, start.origin, parseSymbolName(set.name)!, { line: set.definition.line });
    if (answer === null) return NO_REFERENCES;
    const { sites } = findReferences(start.resolver, answer.best.site);
    const keyOf = (s: ReferenceSite): string => `${projectOf(s.file.repo)}/${s.file.path}:${s.range.startLine + 1}`;
    return { claimed: sites.filter((s) => s.resolved).map(keyOf), nameMatches: sites.filter((s) => !s.resolved).map(keyOf) };
  };
  return {
    name: 'Quarry',
    definitionOf: (usage, withPosition) => toolErrorAsAnswer(() => definitionOf(usage, withPosition)),
    async referencesOf(set) {
      const found = await toolErrorAsAnswer(() => referencesOf(set));
      return found !== null && 'claimed' in found ? found : NO_REFERENCES;
    },
    close: () => services.close(),
  };
}

/** A tool error (an unsupported file, an unknown name) is an answer the agent would see, not a crash of the run. */
async function toolErrorAsAnswer<T>(call: () => Promise<T>): Promise<T | { readonly error: string }> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ToolError) return { error: error.message };
    throw error;
  }
}
