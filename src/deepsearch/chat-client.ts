/**
 * A client for OpenAI-compatible chat completions with tool calling (OpenAI, Ollama, vLLM,
 * llama.cpp's server): one request, streamed or not, retried with backoff on 429 and 5xx (a
 * Retry-After is honoured up to a cap), each attempt under a timeout. Failures become
 * ResearchFailure with a message that says what to fix; the key is sent, never logged or quoted.
 */
import { attemptDeadline } from './attempt-deadline.js';
import { ResearchFailure } from './brain.js';

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** As the model wrote them: JSON text, possibly not valid. */
  readonly arguments: string;
}

export type ChatMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly tool_calls?: readonly WireToolCall[] }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

export interface WireToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly { readonly type: 'function'; readonly function: { name: string; description: string; parameters: unknown } }[];
  /** 'none' asks for the final answer: no more tool calls. */
  readonly toolChoice: 'auto' | 'none';
}

export interface ChatReply {
  readonly content: string;
  readonly toolCalls: readonly ToolCall[];
  readonly promptTokens: number;
  readonly completionTokens: number;
}

export interface ModelEndpoint {
  /** Base URL, e.g. http://127.0.0.1:11434/v1; `/chat/completions` is added. */
  readonly url: string;
  readonly model: string;
  readonly apiKey: string | null;
  /** Where the key came from, for messages: the variable's name, never its value. */
  readonly apiKeyEnvVar: string;
  readonly stream: boolean;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly backoffMs: number;
}

const MAX_RETRY_AFTER_MS = 30_000;

const sleep = (ms: number, signal: AbortSignal): Promise<void> => new Promise((resolve) => {
  const timer = setTimeout(done, ms);
  function done(): void {
    clearTimeout(timer);
    signal.removeEventListener('abort', done);
    resolve();
  }
  signal.addEventListener('abort', done, { once: true });
});

function unreachable(endpoint: ModelEndpoint, why: string): ResearchFailure {
  return new ResearchFailure({ title: 'Model unreachable', kind: 'ModelUnavailable', message: `The model endpoint ${endpoint.url} could not be reached (${why}); check deepSearch.model.endpoint and that the server runs.` });
}

function refused(endpoint: ModelEndpoint, status: number, body: string): ResearchFailure {
  const hint = status === 401 || status === 403
    ? (endpoint.apiKeyEnvVar === '' ? ' Set deepSearch.model.apiKeyEnvVar to the environment variable holding its key.' : ` Check the key in the environment variable ${endpoint.apiKeyEnvVar}.`)
    : status === 404 ? ` Check deepSearch.model.name (${endpoint.model}) and that the endpoint URL ends where /chat/completions starts.` : '';
  const said = body.replace(/\s+/g, ' ').trim().slice(0, 200);
  return new ResearchFailure({ title: 'Model refused the request', kind: 'ModelError', message: `The model endpoint answered HTTP ${status}${said ? `: ${said}` : ''}.${hint}` });
}

function retryDelay(response: Response, attempt: number, base: number): number {
  const header = response.headers.get('retry-after');
  const seconds = header === null ? NaN : Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  return Math.min(base * 2 ** attempt * (0.5 + Math.random() / 2), MAX_RETRY_AFTER_MS);
}

export async function complete(endpoint: ModelEndpoint, request: ChatRequest, signal: AbortSignal): Promise<ChatReply> {
  const body = JSON.stringify({
    model: endpoint.model, messages: request.messages, tools: request.tools, tool_choice: request.toolChoice,
    ...(endpoint.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: endpoint.stream ? 'text/event-stream' : 'application/json' };
  if (endpoint.apiKey !== null) headers['Authorization'] = `Bearer ${endpoint.apiKey}`;
  const url = `${endpoint.url.replace(/\/+$/, '')}/chat/completions`;
  for (let attempt = 0; ; attempt++) {
    const deadline = attemptDeadline(signal, endpoint.timeoutMs);
    let response: Response | null = null;
    try {
      response = await deadline.race(fetch(url, { method: 'POST', headers, body, signal: deadline.signal }));
      if ((response.status === 429 || response.status >= 500) && attempt < endpoint.retries) {
        await response.body?.cancel();
        deadline.dispose();
        await sleep(retryDelay(response, attempt, endpoint.backoffMs), signal);
        if (signal.aborted) throw signal.reason;
        continue;
      }
      if (!response.ok) throw refused(endpoint, response.status, await deadline.race(response.text().catch(() => '')));
      return await deadline.race(readReply(response, signal));
    } catch (err) {
      if (err instanceof ResearchFailure || signal.aborted) throw err;
      if (deadline.timedOut) response?.body?.cancel().catch(() => undefined);
      if (attempt < endpoint.retries) {
        deadline.dispose();
        await sleep(endpoint.backoffMs * 2 ** attempt, signal);
        continue;
      }
      throw deadline.timedOut ? unreachable(endpoint, `no answer within ${endpoint.timeoutMs / 1000} s, ${attempt + 1} attempts`) : unreachable(endpoint, causeOf(err));
    } finally {
      deadline.dispose();
    }
  }
}

/** Streamed or not as the server chose (some ignore `stream`); a body cut off or not JSON is the model's fault, not the network's. */
async function readReply(response: Response, signal: AbortSignal): Promise<ChatReply> {
  try {
    if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) return await readStream(response);
    return readJson(JSON.parse(await response.text()));
  } catch (err) {
    if (err instanceof ResearchFailure || signal.aborted) throw err;
    throw new ResearchFailure({ title: 'Model answer unreadable', kind: 'ModelError', message: `The model endpoint's answer could not be read (${causeOf(err)}).` });
  }
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : 'unknown error');
}

interface WireReply {
  choices?: { message?: { content?: string | null; tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[] } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

function readJson(json: unknown): ChatReply {
  const reply = json as WireReply;
  const message = reply.choices?.[0]?.message;
  if (message === undefined) throw new ResearchFailure({ title: 'Model answer unreadable', kind: 'ModelError', message: 'The model endpoint answered without choices[0].message; is it an OpenAI-compatible chat completions server?' });
  return {
    content: message.content ?? '',
    toolCalls: (message.tool_calls ?? []).map((c, i) => ({ id: c.id ?? `call_${i}`, name: c.function?.name ?? '', arguments: c.function?.arguments ?? '' })),
    promptTokens: reply.usage?.prompt_tokens ?? 0,
    completionTokens: reply.usage?.completion_tokens ?? 0,
  };
}

interface WireChunk {
  choices?: { delta?: { content?: string | null; tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[] } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

/** Server-sent chunks: content and tool-call fragments (joined by index) until `data: [DONE]`. */
async function readStream(response: Response): Promise<ChatReply> {
  let content = '';
  const calls: { id: string; name: string; arguments: string }[] = [];
  let usage = { prompt: 0, completion: 0 };
  const decoder = new TextDecoder();
  let pending = '';
  const take = (line: string): boolean => {
    if (!line.startsWith('data:')) return false;
    const data = line.slice(5).trim();
    if (data === '[DONE]') return true;
    let chunk: WireChunk;
    try {
      chunk = JSON.parse(data) as WireChunk;
    } catch {
      throw new ResearchFailure({ title: 'Model answer unreadable', kind: 'ModelError', message: 'The model endpoint streamed a chunk that is not JSON.' });
    }
    const delta = chunk.choices?.[0]?.delta;
    content += delta?.content ?? '';
    for (const part of delta?.tool_calls ?? []) {
      const at = part.index ?? calls.length;
      const call = (calls[at] ??= { id: '', name: '', arguments: '' });
      call.id ||= part.id ?? '';
      call.name += part.function?.name ?? '';
      call.arguments += part.function?.arguments ?? '';
    }
    if (chunk.usage) usage = { prompt: chunk.usage.prompt_tokens ?? 0, completion: chunk.usage.completion_tokens ?? 0 };
    return false;
  };
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(bytes, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (take(line.trim())) return finish();
  }
  take(pending.trim());
  return finish();

  function finish(): ChatReply {
    return { content, toolCalls: calls.filter(Boolean).map((c, i) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.arguments })), promptTokens: usage.prompt, completionTokens: usage.completion };
  }
}
