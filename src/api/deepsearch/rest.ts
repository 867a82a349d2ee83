/**
 * Sourcegraph's legacy deep search REST API under `/.api/deepsearch/v1` (reference §5.4): start a
 * conversation, read one, list them with filters and pages, add a follow-up, cancel a question,
 * delete a conversation. Callers are authorized by auth/authorize.ts's `deepsearch` row; a
 * conversation by id is its owner's and site admins' (anyone else gets the same 404 as for an id
 * that does not exist); by read token (`filter_read_token`) anyone authorized reads that one.
 * Every error is JSON `{"error": "..."}` saying what to change.
 */
import { authorize, type SiteAccess } from '../../auth/authorize.js';
import type { Authentication, Principal } from '../../auth/principal.js';
import { checkQuestion } from '../../deepsearch/question.js';
import type { Asker, DeepSearch } from '../../deepsearch/service.js';
import type { HttpRequest } from '../../http/request.js';
import type { Reply } from '../../http/respond.js';
import type { Route } from '../../http/routes.js';
import type { Conversation } from '../../model/deepsearch.js';
import { conversationJson, questionJson } from './conversation-json.js';
import { cursorAfter, positiveInteger, readListParams } from './list-params.js';

export const DEEPSEARCH_API_PATH = '/.api/deepsearch/v1';

export interface DeepSearchApiDeps {
  readonly deepSearch: DeepSearch;
  /** The caller as the research's asker: their tools, their repositories. */
  readonly askerFor: (principal: Principal & { readonly userId: number }, origin: string) => Asker;
  /** Site setting `auth.public`, read per request. */
  readonly site: () => SiteAccess;
  /** The origin a request reached us at: links in answers start there. */
  readonly origin: (headers: Readonly<Record<string, string>>) => string;
}

const JSON_HEADERS = Object.freeze({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Vary: 'Authorization' });

interface Call {
  readonly deps: DeepSearchApiDeps;
  readonly principal: Principal & { readonly userId: number };
  readonly origin: string;
  readonly request: HttpRequest<Authentication>;
  readonly reply: Reply;
}

function send(reply: Reply, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  reply.send(status, JSON.stringify(body), { ...JSON_HEADERS, ...headers });
}

const fail = (reply: Reply, status: number, error: string, headers: Readonly<Record<string, string>> = {}): void => send(reply, status, { error }, headers);

export function deepSearchApiRoutes(deps: DeepSearchApiDeps): Route<Authentication>[] {
  const handler = (request: HttpRequest<Authentication>, reply: Reply): void => {
    const decision = authorize(request.auth, 'deepsearch', deps.site);
    if (!decision.ok) return reply.send(decision.answer.status, decision.answer.body, decision.answer.headers);
    const { principal } = decision;
    if (principal.userId === null) return fail(reply, 401, 'Deep search conversations belong to users: send an access token with the user:all scope.');
    dispatch({ deps, principal: { ...principal, userId: principal.userId }, origin: deps.origin(request.headers), request, reply });
  };
  return [
    { method: '*', path: DEEPSEARCH_API_PATH, handler },
    { method: '*', path: `${DEEPSEARCH_API_PATH}/`, handler },
    { method: '*', path: `${DEEPSEARCH_API_PATH}/*`, handler },
  ];
}

function dispatch(call: Call): void {
  const { request, reply } = call;
  const segments = request.path.slice(DEEPSEARCH_API_PATH.length).split('/').filter((s) => s !== '');
  const methods = (allowed: Readonly<Record<string, () => void>>): void => {
    const run = allowed[request.method] ?? (request.method === 'HEAD' ? allowed['GET'] : undefined);
    if (run !== undefined) return run();
    fail(reply, 405, `${request.method} is not allowed on ${request.path}; use ${Object.keys(allowed).join(' or ')}.`, { Allow: Object.keys(allowed).join(', ') });
  };
  if (segments.length === 0) return methods({ GET: () => list(call), POST: () => create(call) });
  const id = positiveInteger(segments[0]!);
  if (id === null) return fail(reply, 400, `The conversation id must be a positive integer, not ${JSON.stringify(segments[0]!.slice(0, 40))}.`);
  if (segments.length === 1) return methods({ GET: () => read(call, id), DELETE: () => remove(call, id) });
  if (segments.length === 2 && segments[1] === 'questions') return methods({ POST: () => addQuestion(call, id) });
  if (segments.length === 4 && segments[1] === 'questions' && segments[3] === 'cancel') {
    const questionId = positiveInteger(segments[2]!);
    if (questionId === null) return fail(reply, 400, `The question id must be a positive integer, not ${JSON.stringify(segments[2]!.slice(0, 40))}.`);
    return methods({ POST: () => cancel(call, id, questionId) });
  }
  fail(reply, 404, `No such deep search endpoint: ${request.path.slice(0, 200)}. The endpoints are ${DEEPSEARCH_API_PATH}, ${DEEPSEARCH_API_PATH}/{id}, ${DEEPSEARCH_API_PATH}/{id}/questions and ${DEEPSEARCH_API_PATH}/{id}/questions/{question_id}/cancel.`);
}

/** The conversation when the caller may read it by id; else the 404 a missing one gets, so ids tell nothing. */
function owned(call: Call, id: number): Conversation | undefined {
  const found = call.deps.deepSearch.readable(call.principal, call.deps.deepSearch.conversations.get(id));
  if (found === undefined) fail(call.reply, 404, `No deep search conversation ${id} that you can read.`);
  return found;
}

/** The JSON body as an object, or undefined once the 400 went out. */
function body(call: Call, example: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(call.request.body).toString('utf8'));
  } catch {
    value = undefined;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  fail(call.reply, 400, `The request body must be a JSON object such as ${example}.`);
  return undefined;
}

function question(call: Call, fields: Record<string, unknown>): string | undefined {
  if (typeof fields['question'] !== 'string') {
    fail(call.reply, 400, 'The body needs "question", a string: the question to research.');
    return undefined;
  }
  const checked = checkQuestion(fields['question']);
  if (!checked.ok) fail(call.reply, 400, checked.problem);
  return checked.ok ? checked.question : undefined;
}

function create(call: Call): void {
  const fields = body(call, '{"question":"Where are sessions expired?"}');
  const text = fields && question(call, fields);
  if (text === undefined) return;
  const started = call.deps.deepSearch.ask(call.deps.askerFor(call.principal, call.origin), call.origin, text);
  // As it stands now: the research may already have moved the question on.
  send(call.reply, 202, conversationJson(call.deps.deepSearch.conversations.get(started.id) ?? started, call.origin, call.principal.userId));
}

function read(call: Call, id: number): void {
  const conversation = owned(call, id);
  if (conversation !== undefined) send(call.reply, 200, conversationJson(conversation, call.origin, call.principal.userId));
}

function list(call: Call): void {
  const params = readListParams(call.request.query);
  if ('problem' in params) return fail(call.reply, 400, params.problem);
  const { principal } = call;
  // A read token opens its conversation to anyone; otherwise users list their own, admins anyone's.
  const ownerOnly = params.readToken === undefined && !principal.siteAdmin;
  const otherUser = ownerOnly && params.userId !== undefined && params.userId !== principal.userId;
  const { conversations, total } = params.starred === true || otherUser ? { conversations: [], total: 0 } : call.deps.deepSearch.conversations.list({
    ...(params.id === undefined ? {} : { id: params.id }),
    ...(params.readToken === undefined ? {} : { readToken: params.readToken }),
    ...(ownerOnly ? { userId: principal.userId } : params.userId === undefined ? {} : { userId: params.userId }),
    sort: params.sort, first: params.first, offset: params.offset,
  });
  const next = params.offset + conversations.length;
  send(call.reply, 200, {
    conversations: conversations.map((c) => conversationJson(c, call.origin, principal.userId)),
    total_count: total,
    page_info: { has_next_page: next < total, end_cursor: next < total ? cursorAfter(params, next) : null },
  });
}

function addQuestion(call: Call, id: number): void {
  const fields = body(call, `{"conversation_id":${id},"question":"And where is that called?"}`);
  if (fields === undefined) return;
  if (fields['conversation_id'] !== undefined && fields['conversation_id'] !== id) {
    return fail(call.reply, 400, `conversation_id ${JSON.stringify(fields['conversation_id'])} does not match the conversation ${id} in the URL; send the same id or leave it out.`);
  }
  const text = question(call, fields);
  if (text === undefined) return;
  const conversation = owned(call, id);
  if (conversation === undefined) return;
  if (conversation.userId !== call.principal.userId) return fail(call.reply, 403, 'Only the owner of a conversation asks its follow-up questions (its research runs with their repositories).');
  const running = conversation.questions.find((q) => q.status !== 'completed');
  if (running !== undefined) return fail(call.reply, 409, `Question ${running.id} of this conversation is still ${running.status}; wait for its answer or cancel it first.`);
  const updated = call.deps.deepSearch.followUp(call.deps.askerFor(call.principal, call.origin), id, text);
  const added = updated?.questions.at(-1);
  if (updated === undefined || added === undefined) return fail(call.reply, 404, `No deep search conversation ${id} that you can read.`);
  // Sourcegraph answers the new question alone here, not the conversation.
  send(call.reply, 202, questionJson(id, call.deps.deepSearch.conversations.get(id)?.questions.find((q) => q.id === added.id) ?? added));
}

function cancel(call: Call, id: number, questionId: number): void {
  const conversation = owned(call, id);
  if (conversation === undefined) return;
  if (!conversation.questions.some((q) => q.id === questionId)) return fail(call.reply, 404, `Conversation ${id} has no question ${questionId}.`);
  const after = call.deps.deepSearch.cancel(id, questionId);
  const q = after?.questions.find((x) => x.id === questionId);
  if (q === undefined) return fail(call.reply, 404, `No deep search conversation ${id} that you can read.`);
  send(call.reply, 200, questionJson(id, q));
}

function remove(call: Call, id: number): void {
  if (owned(call, id) === undefined) return;
  call.deps.deepSearch.delete(id);
  send(call.reply, 200, {});
}
