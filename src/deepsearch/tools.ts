/**
 * What the research needs of Quarry's tools, declared here and implemented by api/mcp over the
 * same service functions the MCP tools use, as the asking user (their repository permissions).
 * Structured calls for the offline researcher; named calls with MCP arguments for a model.
 */
import type { DefinitionSite } from '../model/symbols.js';

/** One file of a search, its matched lines (1-based) in the order the engine gave them. */
export interface FileHits {
  readonly repo: string;
  readonly path: string;
  readonly lines: readonly { readonly line: number; readonly text: string }[];
}

export interface ReferenceHit {
  readonly repo: string;
  readonly path: string;
  readonly line: number;
  readonly text: string;
  readonly container: string;
}

/** A tool a model may call: its name, description and JSON Schema, as tools/list shows them. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ResearchTools {
  /** nls_search's terms and ranking: files best first. */
  nls(query: string): Promise<FileHits[]>;
  keyword(query: string): Promise<FileHits[]>;
  /** Lines of a file at the default branch (1-based, inclusive); null when the caller may not read it or it is missing. */
  read(repo: string, path: string, startLine: number, endLine: number): Promise<{ commit: string; lines: string[] } | null>;
  definition(repo: string, path: string, symbol: string): Promise<DefinitionSite | null>;
  references(repo: string, path: string, symbol: string, limit: number): Promise<ReferenceHit[]>;
  /** The commit links point at; null when the caller may not read the repository (or it does not exist). */
  commitOf(repo: string): Promise<string | null>;
  readonly specs: readonly ToolSpec[];
  /** A tool by name with its MCP arguments, answered with the tool's text. */
  call(name: string, args: Readonly<Record<string, unknown>>): Promise<{ text: string; isError: boolean }>;
}
