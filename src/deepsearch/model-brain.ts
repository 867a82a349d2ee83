/**
 * The model researcher: an OpenAI-compatible model calls Quarry's tools (as the asking user) until
 * it writes its answer. Each model turn is a step and each call a tool call of the ledger; when a
 * limit is reached the model is asked once, without tools, for its answer from what it found. A
 * malformed tool call is answered with what was wrong, as a tool result, so the model can retry.
 */
import { titleOf, type Brain, type Finding, type ResearchInput } from './brain.js';
import { complete, type ChatMessage, type ChatRequest, type ModelEndpoint } from './chat-client.js';
import { LimitReached } from './ledger.js';
import { resolveCitations } from './model-citations.js';

const TOOL_RESULT_CHARS = 12_000;

const SYSTEM = `You research questions about code with the tools given, then answer in Markdown.
Search first (nls_search for concepts, keyword_search for exact names), read the files that matter (read_file), follow definitions and references.
Cite every claim with the file and lines you read, written exactly as [<repo>/<path>:<start>-<end>], e.g. [github.com/org/app/src/db.go:10-24].
Quote only code you read. End with one line: FOLLOWUPS: <question> | <question>`;

const FINAL = 'Your tool budget is spent. Answer now from what you found, citing as instructed; call no tools.';

function parseArguments(text: string): Record<string, unknown> | string {
  try {
    const value: unknown = JSON.parse(text === '' ? '{}' : text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    return 'the arguments must be a JSON object';
  } catch {
    return `the arguments are not valid JSON: ${text.slice(0, 120)}`;
  }
}

function splitFollowups(text: string): { body: string; followups: string[] } {
  // Spaces and tabs only before the marker: `\s` would match the blank line above it, and the line read would be that empty one.
  const at = text.search(/^[ \t]*FOLLOWUPS:/m);
  if (at < 0) return { body: text.trim(), followups: [] };
  const line = text.slice(at).split('\n')[0]!.replace(/^[ \t]*FOLLOWUPS:/, '');
  return { body: text.slice(0, at).trim(), followups: line.split('|').map((q) => q.trim()).filter(Boolean).slice(0, 3) };
}

export function modelResearcher(endpoint: ModelEndpoint): Brain {
  return {
    name: `model ${endpoint.model}`,
    async research(input: ResearchInput): Promise<Finding> {
      const { ledger, tools } = input;
      const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM }];
      for (const prior of input.history) messages.push({ role: 'user', content: prior.question }, { role: 'assistant', content: prior.answer });
      messages.push({ role: 'user', content: input.question });
      const toolList = tools.specs.map((s) => ({ type: 'function' as const, function: { name: s.name, description: s.description, parameters: s.parameters } }));
      const ask = async (toolChoice: ChatRequest['toolChoice']): Promise<Awaited<ReturnType<typeof complete>>> => {
        const reply = await complete(endpoint, { messages, tools: toolList, toolChoice }, ledger.signal);
        ledger.addTokens(reply.promptTokens, reply.completionTokens);
        return reply;
      };
      let final: string | null = null;
      let stopped: LimitReached | null = null;
      try {
        while (final === null) {
          ledger.step();
          const reply = await ask('auto');
          if (reply.toolCalls.length === 0) {
            final = reply.content;
            break;
          }
          messages.push({ role: 'assistant', content: reply.content || null, tool_calls: reply.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) });
          for (const call of reply.toolCalls) {
            const args = parseArguments(call.arguments);
            const result = typeof args === 'string'
              ? await ledger.call(call.name || '(no name)', { raw: call.arguments.slice(0, 200) }, async () => `Error: ${args}. Call ${call.name || 'the tool'} again with a JSON object of its parameters.`, (t) => t)
              : await ledger.call(call.name, args, async () => (await tools.call(call.name, args)).text, (t) => t, reply.content || undefined);
            messages.push({ role: 'tool', tool_call_id: call.id, content: result.slice(0, TOOL_RESULT_CHARS) });
          }
        }
      } catch (err) {
        if (!(err instanceof LimitReached) || (err.kind !== 'steps' && err.kind !== 'toolCalls')) throw err;
        stopped = err;
      }
      if (final === null) {
        // Tool calls left unanswered would make the request invalid; every call above got its result.
        messages.push({ role: 'user', content: FINAL });
        ledger.check();
        const reply = await ask('none');
        if (reply.toolCalls.length > 0 || reply.content.trim() === '') throw stopped ?? new LimitReached('steps');
        final = reply.content;
        ledger.stoppedBy = stopped;
      }
      const { body, followups } = splitFollowups(final);
      const { answer, citations } = await resolveCitations(body, tools, input.origin);
      return { title: titleOf(input.question), answer, sources: citations.sources, suggestedFollowups: followups };
    },
  };
}
