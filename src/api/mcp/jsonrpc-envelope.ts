/**
 * The JSON-RPC 2.0 envelope of a parsed POST body, checked before the SDK's transport sees it: the
 * spec's Invalid Request cases (an empty batch, a member that is no message, a bad id) get one
 * -32600 error naming the problem. Checks shape only; methods and params are the SDK's business.
 */

/** The SDK transport's own batch bound; said here so the refusal names it. */
export const MAX_BATCH_MESSAGES = 100;

const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);
const NOTIFICATION_MEMBERS = new Set(['jsonrpc', 'method', 'params']);
const RESULT_MEMBERS = new Set(['jsonrpc', 'id', 'result']);
const ERROR_MEMBERS = new Set(['jsonrpc', 'id', 'error']);

/** The JSON-RPC error body for an Invalid Request; its id is null, as the spec asks when none could be read. */
export function invalidRequestBody(problem: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: `Invalid Request: ${problem}.` }, id: null });
}

/** What makes `body` (already parsed JSON) no JSON-RPC message or batch, or null when it is one. */
export function envelopeProblem(body: unknown): string | null {
  if (!Array.isArray(body)) {
    const problem = messageProblem(body);
    return problem === null ? null : `the message ${problem}`;
  }
  if (body.length === 0) return 'the batch is empty; send at least one message';
  if (body.length > MAX_BATCH_MESSAGES) return `the batch holds ${body.length} messages; send at most ${MAX_BATCH_MESSAGES} at a time`;
  for (let i = 0; i < body.length; i++) {
    const problem = messageProblem(body[i]);
    if (problem !== null) return `batch message ${i + 1} ${problem}`;
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

function messageProblem(message: unknown): string | null {
  if (!isObject(message)) return 'is not a JSON object';
  if (message['jsonrpc'] !== '2.0') return 'lacks "jsonrpc": "2.0"';
  const hasId = Object.hasOwn(message, 'id');
  if (hasId && !isId(message['id'])) return 'has an "id" that is neither a string nor an integer';
  if (Object.hasOwn(message, 'method')) {
    if (typeof message['method'] !== 'string') return 'has a "method" that is not a string';
    const params = message['params'];
    if (params !== undefined && !isObject(params)) return 'has "params" that are not a JSON object';
    if (params !== undefined && params['_meta'] !== undefined && !isObject(params['_meta'])) return 'has a "params._meta" that is not a JSON object';
    return unknownMember(message, hasId ? REQUEST_MEMBERS : NOTIFICATION_MEMBERS);
  }
  if (Object.hasOwn(message, 'result')) return unknownMember(message, RESULT_MEMBERS);
  if (Object.hasOwn(message, 'error')) return unknownMember(message, ERROR_MEMBERS);
  return 'has neither "method" nor "result" or "error"';
}

function unknownMember(message: Record<string, unknown>, allowed: ReadonlySet<string>): string | null {
  const extra = Object.keys(message).find((key) => !allowed.has(key));
  return extra === undefined ? null : `has a member ${JSON.stringify(extra.slice(0, 40))} that JSON-RPC does not define`;
}
