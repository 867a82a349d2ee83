/**
 * What a deep search question must be, for every door that takes one (the MCP tool, the REST API):
 * some text, at most MAX_QUESTION_CHARS once trimmed. Says what to change; decides nothing else.
 */

export const MAX_QUESTION_CHARS = 4000;

/** The trimmed question, or the problem with it in words the asker can act on. */
export function checkQuestion(text: string): { readonly ok: true; readonly question: string } | { readonly ok: false; readonly problem: string } {
  const question = text.trim();
  if (question === '') return { ok: false, problem: 'question is empty: ask something about the code, e.g. "Where are sessions expired?"' };
  if (question.length > MAX_QUESTION_CHARS) return { ok: false, problem: `question is ${question.length} characters; keep it under ${MAX_QUESTION_CHARS}.` };
  return { ok: true, question };
}
