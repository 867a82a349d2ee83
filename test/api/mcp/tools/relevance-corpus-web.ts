/**
 * The web half of the relevance test repository: HTTP parsing, routing, responses, login, sessions,
 * middleware and the user queries behind login. Ordinary code, written without the ranker in mind.
 */

export const WEB_FILES: Record<string, string> = {
  'src/http/request-parser.ts': `import { HttpError } from './errors.js';

export interface HttpRequest {
  method: string;
  target: string;
  headers: Map<string, string>;
  body: Buffer;
}

/** Reads the request line and headers from the raw bytes a client sent. */
export function parseHTTPRequest(raw: Buffer): HttpRequest {
  const text = raw.toString('latin1');
  const headerEnd = text.indexOf('\\r\\n\\r\\n');
  if (headerEnd < 0) throw new HttpError(400, 'incomplete request head');
  const [requestLine, ...headerLines] = text.slice(0, headerEnd).split('\\r\\n');
  const [method, target, version] = requestLine.split(' ');
  if (!method || !target || !version?.startsWith('HTTP/1.')) throw new HttpError(400, 'malformed request line');
  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new HttpError(400, 'malformed header');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const length = Number(headers.get('content-length') ?? '0');
  return { method, target, headers, body: raw.subarray(headerEnd + 4, headerEnd + 4 + length) };
}
`,
  'src/http/server.ts': `import { createServer, type Socket } from 'node:net';
import { parseHTTPRequest } from './request-parser.js';
import { Router } from './router.js';
import { logger } from '../log/logger.js';

export function startServer(port: number, router: Router): void {
  const server = createServer((socket: Socket) => {
    socket.once('data', async (chunk) => {
      try {
        const request = parseHTTPRequest(chunk);
        const response = await router.dispatch(request);
        socket.end(response.serialize());
      } catch (err) {
        logger.warn('bad request', { err: String(err) });
        socket.end('HTTP/1.1 400 Bad Request\\r\\n\\r\\n');
      }
    });
  });
  server.listen(port, () => logger.info('listening', { port }));
}
`,
  'src/http/router.ts': `import type { HttpRequest } from './request-parser.js';
import { Response } from './response.js';

type Handler = (request: HttpRequest) => Promise<Response>;

export class Router {
  private readonly routes = new Map<string, Handler>();

  add(method: string, path: string, handler: Handler): void {
    this.routes.set(\`\${method} \${path}\`, handler);
  }

  async dispatch(request: HttpRequest): Promise<Response> {
    const handler = this.routes.get(\`\${request.method} \${request.target}\`);
    if (!handler) return Response.text(404, 'not found');
    return handler(request);
  }
}
`,
  'src/http/response.ts': `export class Response {
  constructor(readonly status: number, readonly headers: Record<string, string>, readonly body: string) {}

  static text(status: number, body: string): Response {
    return new Response(status, { 'content-type': 'text/plain' }, body);
  }

  static json(status: number, value: unknown): Response {
    return new Response(status, { 'content-type': 'application/json' }, JSON.stringify(value));
  }

  serialize(): string {
    const head = Object.entries({ ...this.headers, 'content-length': String(Buffer.byteLength(this.body)) })
      .map(([k, v]) => \`\${k}: \${v}\`).join('\\r\\n');
    return \`HTTP/1.1 \${this.status} OK\\r\\n\${head}\\r\\n\\r\\n\${this.body}\`;
  }
}
`,
  'src/auth/login.ts': `import { scryptSync, timingSafeEqual } from 'node:crypto';
import { findUserByEmail } from '../db/users.js';
import { createSession } from './session.js';

export class LoginError extends Error {}

/** Checks the password against the stored scrypt hash and opens a session. */
export async function login(email: string, password: string): Promise<string> {
  const user = await findUserByEmail(email);
  if (!user) throw new LoginError('unknown email or wrong password');
  if (!verifyPassword(password, user.passwordHash, user.salt)) throw new LoginError('unknown email or wrong password');
  return createSession(user.id);
}

export function verifyPassword(password: string, storedHash: string, salt: string): boolean {
  const candidate = scryptSync(password, salt, 64);
  const expected = Buffer.from(storedHash, 'hex');
  return expected.length === candidate.length && timingSafeEqual(candidate, expected);
}
`,
  'src/auth/session.ts': `import { randomBytes } from 'node:crypto';

const SESSION_TTL_MS = 30 * 60 * 1000;

interface Session {
  userId: number;
  expiresAt: number;
}

const sessions = new Map<string, Session>();

export function createSession(userId: number): string {
  const token = randomBytes(32).toString('hex');
  sessions.set(token, { userId, expiresAt: Date.now() + SESSION_TTL_MS });
  return token;
}

/** Returns the user of a live session; expired sessions are dropped on sight. */
export function sessionUser(token: string): number | null {
  const session = sessions.get(token);
  if (!session) return null;
  if (session.expiresAt < Date.now()) {
    sessions.delete(token);
    return null;
  }
  return session.userId;
}

export function logout(token: string): void {
  sessions.delete(token);
}
`,
  'src/auth/middleware.ts': `import type { HttpRequest } from '../http/request-parser.js';
import { Response } from '../http/response.js';
import { sessionUser } from './session.js';

export function requireUser(handler: (request: HttpRequest, userId: number) => Promise<Response>) {
  return async (request: HttpRequest): Promise<Response> => {
    const cookie = request.headers.get('cookie') ?? '';
    const token = /sid=([0-9a-f]+)/.exec(cookie)?.[1];
    const userId = token ? sessionUser(token) : null;
    if (userId === null) return Response.text(401, 'login required');
    return handler(request, userId);
  };
}
`,
  'src/db/users.ts': `import { query } from './client.js';

export interface UserRow {
  id: number;
  email: string;
  passwordHash: string;
  salt: string;
}

export async function findUserByEmail(email: string): Promise<UserRow | null> {
  const rows = await query<UserRow>('SELECT id, email, password_hash AS "passwordHash", salt FROM users WHERE email = $1', [email]);
  return rows[0] ?? null;
}
`,
  'src/db/client.ts': `import { loadConfig } from '../config/load.js';

let endpoint: string | null = null;

export async function query<T>(sql: string, params: unknown[]): Promise<T[]> {
  endpoint ??= loadConfig().databaseUrl;
  const response = await fetch(\`\${endpoint}/query\`, { method: 'POST', body: JSON.stringify({ sql, params }) });
  return (await response.json()) as T[];
}
`,
};
