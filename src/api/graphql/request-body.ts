/**
 * The POST body of a GraphQL request read into query, variables and operation name, or a 400.
 * Nesting is checked on the raw bytes before JSON.parse builds anything: a few MB of `[` parse
 * slowly into millions of nested arrays that later steps would walk recursively.
 */

/** GraphQL requests nest a handful of levels; variables with input objects a few more. */
export const MAX_BODY_NESTING = 64;

export interface GraphQLParams {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly operationName: string | null;
}

export interface BodyError {
  readonly status: 400;
  readonly message: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const BRACE_L = 0x7b;
const BRACE_R = 0x7d;
const BRACKET_L = 0x5b;
const BRACKET_R = 0x5d;

/**
 * Brackets outside JSON strings, read on UTF-8 bytes (no multi-byte sequence contains an ASCII
 * byte); a malformed body is left for JSON.parse to refuse.
 */
function nestsTooDeeply(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === BRACE_L || byte === BRACKET_L) {
      if (++depth > max) return true;
    } else if (byte === BRACE_R || byte === BRACKET_R) {
      depth--;
    }
  }
  return false;
}

/** For bodies handed over already parsed: walks at most `max` levels, iteratively. */
function valueNestsTooDeeply(value: unknown, max: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > max) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
  }
  return false;
}

function bodyError(message: string): BodyError {
  return { status: 400, message };
}

const NESTING_ERROR = bodyError(`request body nests too deeply: more than ${MAX_BODY_NESTING} levels of arrays and objects`);

export function readGraphQLParams(body: unknown): GraphQLParams | BodyError {
  let parsed = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (nestsTooDeeply(bytes, MAX_BODY_NESTING)) return NESTING_ERROR;
    try {
      parsed = JSON.parse(typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
    } catch {
      return bodyError('request body is not valid JSON');
    }
  } else if (valueNestsTooDeeply(body, MAX_BODY_NESTING)) {
    return NESTING_ERROR;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return bodyError('request body must be a JSON object');
  const { query, variables, operationName } = parsed as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') return bodyError('no query');
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return bodyError('variables must be a JSON object');
  if (operationName != null && typeof operationName !== 'string') return bodyError('operationName must be a string');
  return { query, variables: (variables ?? {}) as Record<string, unknown>, operationName: operationName ?? null };
}
