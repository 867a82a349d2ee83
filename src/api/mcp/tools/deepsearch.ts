/**
 * The `deepsearch` tool: starts a conversation whose research runs as the caller (their
 * repositories only), waits for it up to `deepSearch.mcpWaitSeconds` (50 s), and answers the cited
 * Markdown, or Sourcegraph's message to poll with deepsearch_read when it is still running.
 */
import type { DeepSearch } from '../../../deepsearch/service.js';
import { checkQuestion } from '../../../deepsearch/question.js';
import { conversationLink, pollingMessage, questionMarkdown } from '../../../deepsearch/render.js';
import { objectSchema } from '../arguments.js';
import { researchTools } from '../research-tools.js';
import { ToolError, type ProgressReporter, type ToolAnswer, type ToolContext, type ToolDefinition } from '../tool.js';

export function deepSearchOf(ctx: ToolContext): DeepSearch {
  const service = ctx.services.deepSearch;
  if (service === undefined) throw new ToolError('Deep search is not available on this server.');
  return service;
}

/** Progress 0 at the start, then one more per tool call of the research, until unsubscribed. */
function reportProgress(service: DeepSearch, conversationId: number, questionId: number, report: ProgressReporter): () => void {
  let calls = 0;
  report(0, `Researching (deep search conversation ${conversationId})`);
  return service.onTurn(conversationId, questionId, (turn) => report(++calls, `${turn.tool} ${JSON.stringify(turn.args)}`.slice(0, 200)));
}

export const deepsearchTool: ToolDefinition<{ readonly question: string }> = {
  name: 'deepsearch',
  description: `Researches a question with the other tools; answers Markdown citing files and lines, or after 50 s a link to poll with deepsearch_read.
Example: {"question":"How are path parameters parsed?"}`,
  inputSchema: objectSchema({ question: { type: 'string', description: 'The question.' } }, ['question']),
  // It starts a conversation in the store (not read-only), and destroys nothing.
  annotations: { readOnlyHint: false, destructiveHint: false },
  async run(args, ctx): Promise<ToolAnswer> {
    const service = deepSearchOf(ctx);
    const checked = checkQuestion(args.question);
    if (!checked.ok) throw new ToolError(checked.problem);
    const { question } = checked;
    const userId = ctx.principal.userId;
    if (userId === null) throw new ToolError('Deep search conversations belong to a user: sign in to ask.');
    const { principal, services, origin, maxAnswerTokens, log } = ctx;
    const started = service.ask({ userId, tools: (signal) => researchTools({ principal, services, origin, maxAnswerTokens, signal, ...(log ? { log } : {}) }) }, origin, question);
    const questionId = started.questions[0]!.id;
    const unsubscribe = ctx.progress === undefined ? () => {} : reportProgress(service, started.id, questionId, ctx.progress);
    const now = await service.waitFor(started.id, questionId, service.waitMillis(), ctx.signal).finally(unsubscribe);
    const link = conversationLink(started, origin);
    const answered = now?.questions.find((q) => q.id === questionId);
    if (answered === undefined || answered.status !== 'completed') return { text: `${pollingMessage(link)}\n` };
    const failed = answered.answer === undefined && answered.error !== undefined;
    return { text: `${questionMarkdown(answered)}\n\nConversation: ${link}\n`, ...(failed ? { isError: true } : {}) };
  },
};
