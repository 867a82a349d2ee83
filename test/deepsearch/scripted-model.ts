/**
 * A real HTTP server on loopback that speaks the OpenAI chat completions protocol from a script:
 * each request takes the next scripted step (a JSON reply, a streamed reply, a status, or silence),
 * and every request is kept with its headers and body for the test to read.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  readonly headers: IncomingMessage['headers'];
  readonly body: { messages: { role: string; content: string | null; tool_call_id?: string }[]; tool_choice?: string; stream?: boolean; tools?: unknown[]; model?: string };
}

export type Step =
  | { readonly reply: { content?: string; toolCalls?: { name: string; arguments: string }[] }; readonly stream?: boolean }
  | { readonly status: number; readonly retryAfter?: string; readonly text?: string }
  | { readonly hang: true };

export interface ScriptedModel {
  readonly url: string;
  readonly seen: SeenRequest[];
  /** Used when the script has run out. */
  fallback: Step | null;
  close(): Promise<void>;
}

function message(reply: { content?: string; toolCalls?: { name: string; arguments: string }[] }): unknown {
  return {
    role: 'assistant', content: reply.content ?? null,
    ...(reply.toolCalls ? { tool_calls: reply.toolCalls.map((c, i) => ({ id: `call_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments } })) } : {}),
  };
}

/** The reply as SSE chunks, tool-call arguments split in two fragments, usage in the last chunk. */
function streamed(res: ServerResponse, reply: { content?: string; toolCalls?: { name: string; arguments: string }[] }): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  const send = (chunk: unknown): boolean => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  const text = reply.content ?? '';
  for (let i = 0; i < text.length; i += 7) send({ choices: [{ delta: { content: text.slice(i, i + 7) } }] });
  (reply.toolCalls ?? []).forEach((c, index) => {
    const half = Math.floor(c.arguments.length / 2);
    send({ choices: [{ delta: { tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: c.name, arguments: c.arguments.slice(0, half) } }] } }] });
    send({ choices: [{ delta: { tool_calls: [{ index, function: { arguments: c.arguments.slice(half) } }] } }] });
  });
  send({ choices: [], usage: { prompt_tokens: 100, completion_tokens: 20 } });
  res.end('data: [DONE]\n\n');
}

export async function scriptedModel(script: Step[]): Promise<ScriptedModel> {
  const seen: SeenRequest[] = [];
  const hanging: ServerResponse[] = [];
  const model: { fallback: Step | null } = { fallback: null };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as SeenRequest['body'] });
      const step = script.shift() ?? model.fallback;
      if (step === null) return void res.writeHead(500).end('script exhausted');
      if ('hang' in step) return void hanging.push(res);
      if ('status' in step) return void res.writeHead(step.status, step.retryAfter === undefined ? {} : { 'Retry-After': step.retryAfter }).end(step.text ?? '');
      if (step.stream) return streamed(res, step.reply);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: message(step.reply), finish_reason: step.reply.toolCalls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 100, completion_tokens: 20 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(model, {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
