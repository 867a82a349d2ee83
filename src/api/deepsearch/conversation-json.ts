/**
 * Conversations and questions in the legacy REST API's JSON (reference §5.4: snake_case, integer
 * ids, `share_url`, `viewer`), with links at the origin the request came through. Shapes only.
 */
import { conversationLink, sharedLink } from '../../deepsearch/render.js';
import type { Conversation, Question } from '../../model/deepsearch.js';

export function questionJson(conversationId: number, q: Question): Record<string, unknown> {
  return {
    id: q.id,
    conversation_id: conversationId,
    question: q.question,
    created_at: q.createdAt,
    updated_at: q.updatedAt,
    status: q.status,
    ...(q.title === undefined ? {} : { title: q.title }),
    ...(q.answer === undefined ? {} : { answer: q.answer }),
    sources: q.sources.map((s) => ({ type: 'File', link: s.link, label: s.label, repo: s.repo, path: s.path, commit: s.commit, start_line: s.startLine, end_line: s.endLine })),
    turns: q.turns.map((t) => ({ role: 'tool', tool: t.tool, args: t.args, result: t.result, millis: t.millis, ...(t.reasoning === undefined ? {} : { reasoning: t.reasoning }) })),
    // Sourcegraph's stat names; Quarry neither caches prompts nor bills credits, so those stay 0.
    stats: {
      time_millis: q.stats.timeMillis, tool_calls: q.stats.toolCalls, steps: q.stats.steps,
      total_input_tokens: q.stats.promptTokens, cached_tokens: 0, cache_creation_input_tokens: 0,
      prompt_tokens: q.stats.promptTokens, completion_tokens: q.stats.completionTokens, total_tokens: q.stats.totalTokens, credits: 0,
    },
    suggested_followups: q.suggestedFollowups,
    ...(q.error === undefined ? {} : { error: { title: q.error.title, kind: q.error.kind, message: q.error.message } }),
  };
}

/** `share_url` is the normal link, as Sourcegraph's is; `shared_url` the form anyone signed in may open. */
export function conversationJson(c: Conversation, origin: string, viewerId: number | null): Record<string, unknown> {
  return {
    id: c.id,
    questions: c.questions.map((q) => questionJson(c.id, q)),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    user_id: c.userId,
    read_token: c.readToken,
    share_url: conversationLink(c, origin),
    shared_url: sharedLink(c, origin),
    viewer: { is_owner: viewerId === c.userId },
  };
}
