/**
 * The `deepsearch_read` tool: a conversation as Markdown (every question, answer and source), or
 * the message to poll again while a question runs. The normal link and the bare token open only
 * the owner's (and site admins') conversations; the shared link opens it for anyone who has it.
 */
import { parseIdentifier } from '../../../deepsearch/identifier.js';
import { conversationLink, conversationMarkdown, isFinished, pollingMessage } from '../../../deepsearch/render.js';
import { objectSchema } from '../arguments.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { deepSearchOf } from './deepsearch.js';

export const deepsearchReadTool: ToolDefinition<{ readonly identifier: string }> = {
  name: 'deepsearch_read',
  description: `Reads a deep search conversation as Markdown, or says to poll again.
Example: {"identifier":"https://host/deepsearch/<token>"}`,
  inputSchema: objectSchema({ identifier: { type: 'string', description: 'Link (normal or /shared/) or read token.' } }, ['identifier']),
  async run(args, ctx) {
    const service = deepSearchOf(ctx);
    const id = parseIdentifier(args.identifier);
    if (id === null) throw new ToolError('identifier must be a deep search link (…/deepsearch/<token> or …/deepsearch/shared/<token>) or its read token (a UUID).');
    const found = service.conversations.byReadToken(id.token);
    const conversation = id.shared ? found : service.readable(ctx.principal, found);
    if (conversation === undefined) throw new ToolError(`No deep search conversation you can read has the identifier ${args.identifier.trim().slice(0, 200)}.`);
    if (!isFinished(conversation)) return { text: `${pollingMessage(conversationLink(conversation, ctx.origin))}\n` };
    return { text: conversationMarkdown(conversation) };
  },
};
