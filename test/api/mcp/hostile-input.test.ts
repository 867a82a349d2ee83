/**
 * Hostile input to the MCP endpoints of a real server, over loopback HTTP: odd paths and
 * revisions, prototype-named and deeply nested arguments, and malformed JSON-RPC bodies. Each gets
 * an exact tool error (isError) or JSON-RPC error saying what to change; none is an internal error
 * or names the data directory, and the server keeps answering.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OPEN, SECRET, startServedQuarry, type ServedQuarry } from '../served-quarry.js';

let served: ServedQuarry;
let client: Client;
const bodies: string[] = [];

before(async () => {
  served = await startServedQuarry();
  client = new Client({ name: 'hostile-input-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/.api/mcp/all`), { requestInit: { headers: { Authorization: `token ${served.alice}` } } }));
});

after(async () => {
  await client.close();
  // Every answer of this file, whatever it was: none may show where the data lives.
  for (const body of bodies) assert.ok(!body.includes(served.dataDir), body.slice(0, 300));
  await served.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[])[0]!.text;
  bodies.push(text);
  return { text, isError: result.isError === true };
}

/** A raw POST, so the body on the wire is exactly what the test wrote. */
async function post(body: string): Promise<{ status: number; json: any }> {
  const response = await fetch(`${served.url}/.api/mcp/all`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `token ${served.alice}` },
    body,
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  bodies.push(text);
  return { status: response.status, json: text === '' ? null : JSON.parse(text) };
}

const callBody = (rawArguments: string, id = 1): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"read_file","arguments":${rawArguments}}}`;

describe('MCP tools given hostile paths and revisions', () => {
  const invalidPath = (shown: string, problem: string): string =>
    `Invalid path ${shown}: it ${problem}. Paths are relative to the repository root, such as "src/main.go"; use list_files to see what exists.`;
  const dots = 'has a ".." segment; give the path from the repository root without "." or ".."';

  it('refuses paths no tree can hold, saying why', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ path: '../README.md' }, invalidPath('"../README.md"', dots)],
      [{ path: 'src/../../etc/passwd' }, invalidPath('"src/../../etc/passwd"', dots)],
      [{ path: 'src/\u0000app.ts' }, invalidPath('"src/\\u0000app.ts"', 'contains a NUL byte')],
      [{ path: 'src//app.ts' }, invalidPath('"src//app.ts"', 'has an empty segment (a leading, trailing or doubled "/")')],
      [{ path: 'x'.repeat(5000) }, invalidPath(`"${'x'.repeat(120)}…"`, 'is longer than 4096 bytes')],
    ];
    for (const [args, text] of cases) {
      assert.deepEqual(await call('read_file', { repo: OPEN, ...args }), { text, isError: true }, JSON.stringify(args).slice(0, 80));
    }
    assert.deepEqual(await call('list_files', { repo: OPEN, path: '..' }), { text: invalidPath('".."', dots), isError: true });
    assert.deepEqual(await call('go_to_definition', { repo: OPEN, path: '../app.ts', symbol: 'route' }), { text: invalidPath('"../app.ts"', dots), isError: true });
  });

  it('reads pathspec magic and globs as plain names, which do not exist', async () => {
    const short = served.commits[1].slice(0, 12);
    // Read as plain names: none exists, and the closest real file is named for those that spell one.
    const hints: Record<string, string> = { ':(top)README.md': ' Did you mean README.md?', ':/README.md': ' Did you mean README.md?' };
    for (const path of [':(glob)*.md', ':(top)README.md', ':/README.md', '*.md', '-r']) {
      assert.deepEqual(await call('read_file', { repo: OPEN, path }), { text: `File not found: ${path} (${OPEN}@${short}).${hints[path] ?? ''} Use list_files to see the directory.`, isError: true }, path);
    }
    assert.deepEqual(await call('list_files', { repo: OPEN, path: ':(glob)*' }), {
      text: `Directory not found: :(glob)* (${OPEN}@${short}). Use list_files on a parent directory to see what exists.`, isError: true,
    });
  });

  it('refuses revisions that are no single branch, tag or commit, saying why', async () => {
    const invalid = (shown: string, problem: string): string =>
      `Invalid revision ${shown}: it ${problem}. Pass one branch, tag or commit id (such as "main", "v1.2.0" or "HEAD~2"), or omit revision to read the default branch.`;
    const cases: [string, string][] = [
      ['--output=/tmp/quarry-hostile', invalid('"--output=/tmp/quarry-hostile"', 'starts with "-"')],
      ['main@{0}', invalid('"main@{0}"', 'uses reflog syntax ("@{…}"), which is not supported')],
      ['@{-1}', invalid('"@{-1}"', 'uses reflog syntax ("@{…}"), which is not supported')],
      ['main~1..main', invalid('"main~1..main"', 'is a range ("..") where one revision is expected')],
      ['HEAD:README.md', invalid('"HEAD:README.md"', 'contains ":" (the "revision:path" and ":/message" forms are not supported)')],
      ['main\u0000', invalid('"main\\u0000"', 'contains a space, a NUL byte or another control character')],
      ['r'.repeat(3000), invalid(`"${'r'.repeat(120)}…"`, 'is longer than 1024 characters')],
    ];
    for (const [revision, text] of cases) {
      assert.deepEqual(await call('read_file', { repo: OPEN, path: 'README.md', revision }), { text, isError: true }, revision.slice(0, 40));
      assert.deepEqual(await call('list_files', { repo: OPEN, revision }), { text, isError: true }, revision.slice(0, 40));
    }
    const compared = await call('compare_revisions', { repo: OPEN, base: 'main~1..main', head: 'main' });
    assert.deepEqual(compared, {
      text: `Revision not found: "main~1..main" (it is a range ("..") where one revision is expected) in ${OPEN}. Pass a branch, tag or commit that exists.`,
      isError: true,
    });
    const fine = await call('read_file', { repo: OPEN, path: 'src/app.ts', revision: 'main~1' });
    assert.equal(fine.isError, false);
    assert.match(fine.text, /return path;/);
  });

  it('answers a hidden repository exactly like a missing one, whatever else is wrong', async () => {
    for (const args of [{ path: 'plan.ts' }, { path: 'plan.ts', revision: 'main..x' }]) {
      const hidden = await call('read_file', { repo: SECRET, ...args });
      const missing = await call('read_file', { repo: 'github.com/acme/nothing', ...args });
      assert.deepEqual(hidden, { text: `Repository not found: ${SECRET}. Use list_repos to find repository names.`, isError: true });
      assert.deepEqual({ ...missing, text: missing.text.replace('github.com/acme/nothing', SECRET) }, hidden);
    }
  });
});

describe('MCP tool arguments named like Object.prototype members, or nested without end', () => {
  const known = '(known: repo, path, startLine, endLine, revision)';

  it('answers each prototype name as an unknown argument', async () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf']) {
      const { status, json } = await post(callBody(`{"repo":"${OPEN}","path":"README.md","${name}":{"repo":"x"}}`));
      assert.equal(status, 200, name);
      assert.deepEqual(json.result, { content: [{ type: 'text', text: `Invalid arguments: unknown argument "${name}" ${known}.` }], isError: true }, name);
    }
  });

  it('does not take a required argument from a __proto__ member', async () => {
    const { json } = await post(callBody(`{"__proto__":{"repo":"${OPEN}","path":"README.md"}}`));
    assert.deepEqual(json.result.content[0].text, `Invalid arguments: "repo" is required; "path" is required; unknown argument "__proto__" ${known}.`);
  });

  it('answers arguments that are no object, or nested tens of thousands deep, within seconds', async () => {
    const cases: [string, string][] = [
      ['"README.md"', 'Invalid arguments: arguments must be a JSON object, not "README.md".'],
      ['[1,2]', 'Invalid arguments: arguments must be a JSON object, not [1,2].'],
      ['null', 'Invalid arguments: arguments must be a JSON object, not null.'],
      [`{"repo":"${OPEN}","path":${'['.repeat(5000)}${']'.repeat(5000)}}`, 'Invalid arguments: "path" must be a string, not an array of 1 value.'],
      [`{"repo":"${OPEN}","path":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`, 'Invalid arguments: "path" must be a string, not an object.'],
    ];
    for (const [raw, text] of cases) {
      const started = performance.now();
      const { status, json } = await post(callBody(raw));
      assert.equal(status, 200);
      assert.deepEqual(json, { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }], isError: true } }, raw.slice(0, 40));
      assert.ok(performance.now() - started < 10_000, 'answered within 10 s (a 5,000-deep array used to leave the request unanswered)');
    }
  });

  it('answers a tool name that is a prototype member as an unknown tool (-32602)', async () => {
    const { json } = await post('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"constructor","arguments":{}}}');
    assert.equal(json.error.code, -32602);
    assert.match(json.error.message, /^MCP error -32602: Unknown tool: constructor\. Tools on this endpoint: /);
  });
});

describe('malformed JSON-RPC bodies', () => {
  const invalidRequest = (problem: string): unknown => ({ jsonrpc: '2.0', error: { code: -32600, message: `Invalid Request: ${problem}.` }, id: null });

  it('answers an empty batch and other non-messages with one Invalid Request error', async () => {
    const cases: [string, string][] = [
      ['[]', 'the batch is empty; send at least one message'],
      ['[1]', 'batch message 1 is not a JSON object'],
      ['[{"jsonrpc":"2.0","id":1,"method":"ping"},"x"]', 'batch message 2 is not a JSON object'],
      ['null', 'the message is not a JSON object'],
      ['{"id":1,"method":"ping"}', 'the message lacks "jsonrpc": "2.0"'],
      [`{"jsonrpc":"2.0","id":${'9'.repeat(400)},"method":"ping"}`, 'the message has an "id" that is neither a string nor an integer'],
      ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', 'the message has an "id" that is neither a string nor an integer'],
      ['{"jsonrpc":"2.0","id":{},"method":"ping"}', 'the message has an "id" that is neither a string nor an integer'],
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}', 'the message has "params" that are not a JSON object'],
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list","__proto__":{}}', 'the message has a member "__proto__" that JSON-RPC does not define'],
      ['{"jsonrpc":"2.0","id":1}', 'the message has neither "method" nor "result" or "error"'],
      [JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))), 'the batch holds 5000 messages; send at most 100 at a time'],
    ];
    for (const [body, problem] of cases) {
      assert.deepEqual(await post(body), { status: 400, json: invalidRequest(problem) }, body.slice(0, 60));
    }
  });

  it('still answers unparsable JSON with the transport\'s parse error, and valid batches as before', async () => {
    assert.deepEqual(await post(`${'['.repeat(100_000)}`), { status: 400, json: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null } });
    const batch = await post('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]');
    assert.equal(batch.status, 200);
    assert.deepEqual(batch.json.map((m: { id: number }) => m.id).sort(), [1, 2]);
  });

  it('keeps serving after all of the above', async () => {
    assert.equal(await served.healthy(), true);
    const read = await call('read_file', { repo: OPEN, path: 'README.md' });
    assert.equal(read.isError, false);
    assert.match(read.text, /1: # Open/);
  });
});
