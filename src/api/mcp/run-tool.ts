/**
 * Runs one tool call and maps its failures to answers, in this one place: a tool error or an
 * engine error written for the caller (bad query, unknown repository or revision, timeout:
 * errors.ts isCallerFacing) becomes an `isError` answer with its message; anything else (git, the
 * index) is an internal error whose details stay in the log.
 */
import { errorMessage, isCallerFacing, isQuarryError } from '../../errors.js';
import { checkArguments } from './arguments.js';
import { ToolError, type ToolAnswer, type ToolContext, type ToolDefinition } from './tool.js';
import { closestRefsHint } from './tools/revision.js';

export async function runTool<Args>(tool: ToolDefinition<Args>, rawArgs: unknown, ctx: ToolContext, log: (line: string) => void = () => {}): Promise<ToolAnswer> {
  const checked = checkArguments(tool.inputSchema, rawArgs);
  if (!checked.ok) return { text: checked.message, isError: true };
  try {
    // checkArguments has just proved the arguments match the schema that Args describes.
    return await tool.run(checked.args as Args, ctx);
  } catch (err) {
    if (err instanceof ToolError) return { text: err.message, isError: true };
    if (ctx.signal.aborted) return { text: 'The call was cancelled.', isError: true };
    if (isCallerFacing(err)) return { text: `${errorMessage(err)}${await refsHint(err, ctx)}`, isError: true };
    log(`mcp: ${tool.name} failed: ${errorMessage(err)}`);
    return internalErrorAnswer(tool.name);
  }
}

/** What the agent sees of a failure that is ours, not its own: the details stay in the log. */
export function internalErrorAnswer(toolName: string): ToolAnswer {
  return { text: `Internal error while running ${toolName}; the server log has details.`, isError: true };
}

/** A revision a history tool could not find (compare_revisions' base, diff_search's revisions): the closest refs by name. */
async function refsHint(err: unknown, ctx: ToolContext): Promise<string> {
  if (!isQuarryError(err, 'REVISION_NOT_FOUND')) return '';
  const { repo, rev, problem } = err.details;
  // A revision refused for its form (a range, an option) is not a near miss of an existing name.
  if (typeof repo !== 'string' || typeof rev !== 'string' || problem !== undefined) return '';
  try {
    return ctx.services.repos.get(repo, ctx.principal.canRead) === null ? '' : await closestRefsHint(ctx, repo, rev);
  } catch {
    // A hint that cannot be had never hides the error it would have explained.
    return '';
  }
}
