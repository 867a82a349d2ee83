/**
 * Which files are binary: those with a NUL byte. One rule for the indexer and unindexed revision
 * searches (which both skip them) and MCP read_file (which shows no content for them).
 */

export function isBinary(content: Uint8Array): boolean {
  return content.indexOf(0) !== -1;
}
