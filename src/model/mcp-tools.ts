/**
 * The names of Quarry's MCP tools (Sourcegraph's names): the vocabulary the tool registry places on
 * endpoints and the site setting `mcp.tools.disabled` may name. Names only; no tool lives here.
 */

export const MCP_TOOL_NAMES = [
  'commit_search', 'compare_revisions', 'deepsearch', 'deepsearch_read', 'diff_search', 'evaluator', 'find_references',
  'get_contributor_repos', 'go_to_definition', 'keyword_search', 'list_files', 'list_refs', 'list_repos', 'nls_search', 'read_file',
] as const;

export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

export function isMcpToolName(name: string): name is McpToolName {
  return (MCP_TOOL_NAMES as readonly string[]).includes(name);
}
