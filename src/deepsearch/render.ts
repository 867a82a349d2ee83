/**
 * A conversation as Markdown (deepsearch_read, the `.md` pages): each question with its answer,
 * sources and suggested follow-ups, or its error; and the message that tells an agent to poll.
 */
import type { Conversation, Question } from '../model/deepsearch.js';

export function conversationLink(conversation: Conversation, origin = conversation.origin): string {
  return `${origin}/deepsearch/${conversation.readToken}`;
}

export function sharedLink(conversation: Conversation, origin = conversation.origin): string {
  return `${origin}/deepsearch/shared/${conversation.readToken}`;
}

/** Sourcegraph's words (reference §1.4), so agents that learned them poll as they did. */
export function pollingMessage(link: string): string {
  return `Your deep search is still processing. Poll for results using deepsearch_read with identifier: ${link}`;
}

export function isFinished(conversation: Conversation): boolean {
  return conversation.questions.every((q) => q.status === 'completed');
}

function seconds(millis: number): string {
  return `${(millis / 1000).toFixed(1)} s`;
}

/** One question's answer: the Markdown itself, then sources, follow-ups and stats. */
export function questionMarkdown(q: Question): string {
  const parts: string[] = [];
  if (q.error !== undefined) parts.push(`**${q.error.title}** (${q.error.kind}): ${q.error.message}`);
  if (q.answer !== undefined) parts.push(q.answer);
  if (q.status !== 'completed') parts.push(`_Still ${q.status}: ${q.turns.length} tool calls so far._`);
  if (q.sources.length > 0) parts.push(['**Sources**', '', ...q.sources.map((s) => `- [${s.label}](${s.link})`)].join('\n'));
  if (q.suggestedFollowups.length > 0) parts.push(['**Suggested follow-ups**', '', ...q.suggestedFollowups.map((f) => `- ${f}`)].join('\n'));
  if (q.status === 'completed') parts.push(`_${q.stats.toolCalls} tool calls, ${q.stats.steps} steps, ${q.stats.totalTokens} model tokens, ${seconds(q.stats.timeMillis)}._`);
  return parts.join('\n\n');
}

export function conversationMarkdown(conversation: Conversation): string {
  const title = conversation.questions[0]?.title ?? conversation.questions[0]?.question ?? 'Deep search';
  const parts = [`# ${title}`, `Conversation ${conversation.id}: ${conversationLink(conversation)}`];
  conversation.questions.forEach((q, i) => {
    parts.push(`## Question ${i + 1}: ${q.question.replace(/\s+/g, ' ').trim()}`, questionMarkdown(q));
  });
  return `${parts.join('\n\n')}\n`;
}
