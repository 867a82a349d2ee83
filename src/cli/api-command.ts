/**
 * `quarry api`: src-cli's `src api` against a Quarry (or Sourcegraph) server. Prints the raw
 * GraphQL response; exit 2 when it carries errors, 1 when the request itself failed (§6.3).
 */
import { createError } from '../errors.js';
import type { CliIO, Command } from './command.js';
import { postGraphQL } from './remote/client.js';
import { freshEndpoint } from './remote/oauth-login.js';

const USAGE = `Usage: quarry api [-query QUERY] [-vars JSON] [variable=value ...]

Sends a GraphQL request to SRC_ENDPOINT (default http://127.0.0.1:7080; or "endpoint" in
~/src-config.json) with SRC_ACCESS_TOKEN (or "accessToken"), and prints the response.
The query comes from -query or standard input. Each variable=value adds a string variable.
Exit status: 0, 2 when the response has errors, 1 when the request failed.`;

export const apiCommand: Command = {
  name: 'api',
  summary: 'send a GraphQL request to a server (like src api)',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { query, variables } = await parseApiArgs(args);
    const reply = await postGraphQL(await freshEndpoint(), query, variables);
    io.out(JSON.stringify({ ...(reply.data !== undefined ? { data: reply.data } : {}), ...(reply.errors?.length ? { errors: reply.errors } : {}) }, null, 2));
    return reply.errors?.length ? 2 : 0;
  },
};

async function parseApiArgs(args: readonly string[]): Promise<{ query: string; variables: Record<string, unknown> }> {
  let query: string | undefined;
  let variables: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const flag = arg.replace(/^--?/, '');
    if (arg.startsWith('-') && (flag === 'query' || flag === 'vars')) {
      const value = args[++i];
      if (value === undefined) throw createError('USAGE', `${arg} needs a value`);
      if (flag === 'query') query = value;
      else variables = { ...variables, ...parseVars(value) };
    } else if (arg.startsWith('-')) {
      throw createError('USAGE', `unknown flag ${arg}`);
    } else {
      const eq = arg.indexOf('=');
      if (eq === -1) throw createError('USAGE', `parsing argument ${JSON.stringify(arg)} expected 'variable=value' syntax (missing equals)`);
      variables[arg.slice(0, eq)] = arg.slice(eq + 1);
    }
  }
  query ??= await readStdin();
  return { query, variables };
}

function parseVars(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw createError('USAGE', `-vars is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw createError('USAGE', '-vars must be a JSON object');
  return parsed as Record<string, unknown>;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw createError('USAGE', "expected query to be piped into 'quarry api' or -query flag to be specified");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
