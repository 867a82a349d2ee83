/**
 * The one tool registry: which tool appears on which endpoint (the table of issue 4 and reference
 * §1.1, all fourteen tools, and list_refs, which Sourcegraph added in 2026), the implementations
 * that exist so far, and the deep search switch.
 */
import { commitSearchTool } from './tools/commit-search.js';
import { compareRevisionsTool } from './tools/compare-revisions.js';
import { deepsearchTool } from './tools/deepsearch.js';
import { deepsearchReadTool } from './tools/deepsearch-read.js';
import { diffSearchTool } from './tools/diff-search.js';
import { evaluatorTool } from './tools/evaluator.js';
import { findReferencesTool } from './tools/find-references.js';
import { getContributorReposTool } from './tools/get-contributor-repos.js';
import { goToDefinitionTool } from './tools/go-to-definition.js';
import { keywordSearchTool } from './tools/keyword-search.js';
import { listFilesTool } from './tools/list-files.js';
import { listRefsTool } from './tools/list-refs.js';
import { listReposTool } from './tools/list-repos.js';
import { nlsSearchTool } from './tools/nls-search.js';
import { readFileTool } from './tools/read-file.js';
import { isMcpToolName, type McpToolName } from '../../model/mcp-tools.js';
import type { Endpoint, ToolDefinition } from './tool.js';

const CORE_AND_ALL: readonly Endpoint[] = ['core', 'all'];

export const ENDPOINT_TABLE: Readonly<Record<McpToolName, readonly Endpoint[]>> = {
  commit_search: CORE_AND_ALL,
  diff_search: CORE_AND_ALL,
  evaluator: CORE_AND_ALL,
  keyword_search: CORE_AND_ALL,
  list_files: CORE_AND_ALL,
  list_refs: CORE_AND_ALL,
  list_repos: CORE_AND_ALL,
  nls_search: CORE_AND_ALL,
  read_file: CORE_AND_ALL,
  compare_revisions: ['all'],
  find_references: ['all'],
  get_contributor_repos: ['all'],
  go_to_definition: ['all'],
  deepsearch: ['all', 'deepsearch'],
  deepsearch_read: ['core', 'all', 'deepsearch'],
};

/** Every tool; the table above says where each is listed. */
export const IMPLEMENTED: readonly ToolDefinition[] = [
  readFileTool, listFilesTool, listReposTool, listRefsTool, keywordSearchTool, nlsSearchTool, goToDefinitionTool, findReferencesTool,
  diffSearchTool, compareRevisionsTool, commitSearchTool, getContributorReposTool, evaluatorTool, deepsearchTool, deepsearchReadTool,
] as readonly ToolDefinition[];

export interface RegistryOptions {
  /**
   * SRC_MCP_DISABLE_DEEPSEARCH_TOOL: hides and refuses `deepsearch` everywhere (not `deepsearch_read`),
   * for the life of the process; the site setting `mcp.tools.disabled` does the same for any tool, per request.
   */
  readonly disableDeepsearchTool: boolean;
}

export const ENDPOINT_PATHS: Readonly<Record<Endpoint, string>> = {
  core: '/.api/mcp',
  all: '/.api/mcp/all',
  deepsearch: '/.api/mcp/deepsearch',
};

export function toolsFor(endpoint: Endpoint, options: RegistryOptions, implemented: readonly ToolDefinition[] = IMPLEMENTED): ToolDefinition[] {
  return implemented.filter((tool) => {
    if (options.disableDeepsearchTool && tool.name === 'deepsearch') return false;
    const endpoints = isMcpToolName(tool.name) ? ENDPOINT_TABLE[tool.name] : undefined;
    if (endpoints === undefined) throw new Error(`tool ${tool.name} is missing from the endpoint table`);
    return endpoints.includes(endpoint);
  });
}
