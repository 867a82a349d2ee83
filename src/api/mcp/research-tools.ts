/**
 * Deep search's tools (deepsearch/tools.ts) over the MCP tools' own service functions, as the
 * asking user: the evaluator's row functions for the offline researcher's structured calls, and
 * runTool over the ten research tools for a model's named calls. A repository the user may not
 * read answers as missing, exactly as in the tools themselves.
 */
import { isCallerFacing } from '../../errors.js';
import type { ResearchTools, ToolSpec } from '../../deepsearch/tools.js';
import { splitLines } from './format.js';
import { runTool } from './run-tool.js';
import { ToolError, type ToolContext, type ToolDefinition } from './tool.js';
import { commitSearchTool } from './tools/commit-search.js';
import { compareRevisionsTool } from './tools/compare-revisions.js';
import { diffSearchTool } from './tools/diff-search.js';
import { evaluatorTool } from './tools/evaluator.js';
import { findReferencesTool } from './tools/find-references.js';
import { goToDefinitionTool } from './tools/go-to-definition.js';
import { keywordSearchTool } from './tools/keyword-search.js';
import { listFilesTool } from './tools/list-files.js';
import { nlsSearchTool } from './tools/nls-search.js';
import { readFileTool } from './tools/read-file.js';
import { ScriptArgs } from './tools/evaluator-args.js';
import { definitionValue, referenceRows } from './tools/evaluator-nav.js';
import { keywordRows, nlsRows, type LineRow } from './tools/evaluator-search.js';
import { readSource } from './tools/evaluator-source.js';

const ROWS_PER_SEARCH = 2000;
const FILES_PER_SEARCH = 15;

function groupByFile(rows: readonly LineRow[]): { repo: string; path: string; lines: { line: number; text: string }[] }[] {
  const files = new Map<string, { repo: string; path: string; lines: { line: number; text: string }[] }>();
  for (const row of rows) {
    const id = `${row.repo}\0${row.path}`;
    let file = files.get(id);
    if (file === undefined) {
      if (files.size >= FILES_PER_SEARCH) continue;
      file = { repo: row.repo, path: row.path, lines: [] };
      files.set(id, file);
    }
    if (row.line !== undefined) file.lines.push({ line: row.line, text: row.text ?? '' });
  }
  return [...files.values()];
}

/** A missing or unreadable target is an empty answer to the researcher, not a failure of the run. */
async function orNull<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ToolError || isCallerFacing(err)) return null;
    throw err;
  }
}

/** `ctx.signal` is the research's own: a run outlives the request that started it. */
const RESEARCH_TOOLS = [
  nlsSearchTool, keywordSearchTool, readFileTool, listFilesTool, goToDefinitionTool, findReferencesTool, commitSearchTool, diffSearchTool, compareRevisionsTool, evaluatorTool,
] as readonly ToolDefinition[];

export function researchTools(ctx: ToolContext): ResearchTools {
  const usable = new Map(RESEARCH_TOOLS.map((t) => [t.name, t]));
  const specs: ToolSpec[] = [...usable.values()].map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema as unknown as Record<string, unknown> }));
  const commitOf = async (repo: string): Promise<string | null> => (ctx.services.repos.get(repo, ctx.principal.canRead) === null ? null : ctx.services.defaultCommit(repo));
  return {
    specs,
    commitOf,
    async nls(query) {
      return (await orNull(async () => groupByFile(await nlsRows(ctx, new ScriptArgs([query, { limit: ROWS_PER_SEARCH }]))))) ?? [];
    },
    async keyword(query) {
      return (await orNull(async () => groupByFile(await keywordRows(ctx, new ScriptArgs([query, { limit: ROWS_PER_SEARCH }]))))) ?? [];
    },
    async read(repo, path, startLine, endLine) {
      const commit = await commitOf(repo);
      if (commit === null) return null;
      const bytes = await orNull(() => readSource(ctx, new ScriptArgs([repo, path, { revision: commit, startLine, endLine }])));
      return bytes === null ? null : { commit, lines: splitLines(Buffer.from(bytes).toString('utf8')) };
    },
    async definition(repo, path, symbol) {
      return orNull(() => definitionValue(ctx, new ScriptArgs([{ repo, path, symbol }])));
    },
    async references(repo, path, symbol, limit) {
      const rows = await orNull(() => referenceRows(ctx, new ScriptArgs([{ repo, path, symbol, limit }])));
      return (rows ?? []).map((r) => ({ repo: r.repo, path: r.path, line: r.line, text: r.text, container: r.container }));
    },
    async call(name, args) {
      const tool = usable.get(name);
      if (tool === undefined) return { text: `Unknown tool ${name}; the tools are ${[...usable.keys()].join(', ')}.`, isError: true };
      const answer = await runTool(tool, args, ctx, ctx.log);
      return { text: answer.text, isError: answer.isError === true };
    },
  };
}
