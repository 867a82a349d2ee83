/**
 * A seeded fuzz of every tool on `/.api/mcp/all` of a real server: arguments of the declared types
 * and of any other shape, odd strings (paths, revisions, queries, NUL, unicode, megabyte-long),
 * prototype names and nested values. No call may end in a JSON-RPC -32603 or an "Internal error"
 * answer, no answer may name the data directory, and the server keeps serving. The seed is in
 * every failure message; QUARRY_FUZZ_SEED replays one.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { seededRandom } from '../../helpers/random.js';
import { OPEN, SECRET, startServedQuarry, type ServedQuarry } from '../served-quarry.js';

const SEED = Number(process.env['QUARRY_FUZZ_SEED'] ?? 20261124);
const CALLS_PER_TOOL = 40;
const CURSORS = new Set(['after', 'before']);

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__', 'prototype'];
const ODD_STRINGS = [
  '', ' ', '.', '..', '../..', '/', '//', './', 'src/../..', ':(glob)**', ':(top)x', ':/', ':!x', '*', '**/*', '-', '--', '--output=/tmp/quarry-fuzz',
  '-n', 'main', 'main~1', 'HEAD', 'HEAD^', 'main@{0}', '@{-1}', 'main..HEAD', 'main...HEAD', 'HEAD:README.md', 'a\u0000b', '\u0000', '\n', '\r\n', '\t',
  'README.md', 'src/app.ts', 'src', 'route', 'export', OPEN, SECRET, 'github.com/acme/', 'repo:open', 'repo:^$', 'type:diff', 'type:commit route',
  'patterntype:regexp (a+)+$', '/(/', 'file:', 'count:all', 'timeout:1ms x', 'author:', 'before:"not a date"', 'select:symbol.class x',
  'e\u0301', '\u{1F600}', '\uD800', '\uFFFF', '\u202E', 'x'.repeat(100_000), 'ü'.repeat(3000), '%00', '${x}', '"', '\\',
];

interface ToolSchema {
  readonly name: string;
  readonly inputSchema: { properties: Record<string, { type: string; minimum?: number; maximum?: number }>; required?: string[] };
}

class Generator {
  constructor(private readonly random: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  string(): string {
    if (this.chance(0.7)) return this.pick(ODD_STRINGS);
    const length = Math.floor(this.random() * 20);
    return Array.from({ length }, () => String.fromCodePoint(this.pick([0, 0x2f, 0x2e, 0x3a, 0x41, 0x7a, 0x80, 0x300, 0xd7ff, 0xe000, 0x1f600]) + Math.floor(this.random() * 3))).join('');
  }

  integer(schema: { minimum?: number; maximum?: number }): number {
    return this.pick([schema.minimum ?? 0, schema.maximum ?? 1e9, -1, 0, 1, 2, 7, 1000, 2 ** 31, Number.MAX_SAFE_INTEGER, Math.floor(this.random() * 100)]);
  }

  json(depth: number): unknown {
    const kind = this.pick(['string', 'number', 'boolean', 'null', 'array', 'object', 'deep']);
    if (depth > 4 && (kind === 'array' || kind === 'object')) return this.string();
    switch (kind) {
      case 'string': return this.string();
      case 'number': return this.pick([0, -0, 1.5, -1, 1e308, -1e308, 2 ** 53, 0.1]);
      case 'boolean': return this.chance(0.5);
      case 'null': return null;
      case 'array': return Array.from({ length: Math.floor(this.random() * 4) }, () => this.json(depth + 1));
      case 'deep': return JSON.parse(`${'['.repeat(3000)}${']'.repeat(3000)}`) as unknown;
      default: return Object.fromEntries(Array.from({ length: Math.floor(this.random() * 4) }, () => [this.key(), this.json(depth + 1)]));
    }
  }

  key(): string {
    return this.chance(0.5) ? this.pick(PROTOTYPE_NAMES) : this.string().slice(0, 30);
  }

  valueFor(property: { type: string; minimum?: number; maximum?: number }): unknown {
    if (this.chance(0.2)) return this.json(0);
    switch (property.type) {
      case 'string': return this.string();
      case 'integer': return this.integer(property);
      case 'boolean': return this.chance(0.5);
      default: return Array.from({ length: Math.floor(this.random() * 4) }, () => this.string());
    }
  }

  /** A JSON text, so that keys such as `__proto__` stay own members on the wire. */
  argumentsFor(tool: ToolSchema): string {
    if (this.chance(0.05)) return JSON.stringify(this.json(3));
    const members: string[] = [];
    for (const [name, property] of Object.entries(tool.inputSchema.properties)) {
      const required = tool.inputSchema.required?.includes(name) ?? false;
      // A fuzzed cursor is refused before the tool's own work: sent less often, so most calls still reach it.
      const chance = required ? 0.9 : CURSORS.has(name) ? 0.15 : 0.5;
      if (this.chance(chance)) members.push(`${JSON.stringify(name)}:${JSON.stringify(this.valueFor(property))}`);
    }
    if (this.chance(0.25)) members.push(`${JSON.stringify(this.key())}:${JSON.stringify(this.json(2))}`);
    return `{${members.join(',')}}`;
  }
}

let served: ServedQuarry;

before(async () => {
  served = await startServedQuarry();
});

after(async () => {
  await served.close();
});

async function post(body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${served.url}/.api/mcp/all`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `token ${served.alice}` },
    body,
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, text: await response.text() };
}

it(`answers every fuzzed tool call with a result or a tool error, never an internal error (seed ${SEED})`, async () => {
  const listed = JSON.parse((await post('{"jsonrpc":"2.0","id":0,"method":"tools/list"}')).text) as { result: { tools: ToolSchema[] } };
  const tools = listed.result.tools;
  assert.equal(tools.length, 15);
  const generate = new Generator(seededRandom(SEED));
  let id = 1;
  let toolErrors = 0;
  let results = 0;
  for (const tool of tools) {
    for (let i = 0; i < CALLS_PER_TOOL; i++) {
      const args = generate.argumentsFor(tool);
      const body = `{"jsonrpc":"2.0","id":${id++},"method":"tools/call","params":{"name":${JSON.stringify(tool.name)},"arguments":${args}}}`;
      const where = `seed ${SEED}, ${tool.name} call ${i}: ${args.slice(0, 200)}`;
      const { status, text } = await post(body);
      assert.equal(status, 200, `${where} → ${status} ${text.slice(0, 200)}`);
      const answer = JSON.parse(text) as { error?: { code: number; message: string }; result?: { content: { text: string }[]; isError?: boolean } };
      assert.equal(answer.error, undefined, `${where} → ${text.slice(0, 300)}`);
      const answerText = answer.result!.content[0]!.text;
      assert.ok(!/Internal error/i.test(answerText), `${where} → ${answerText.slice(0, 300)}`);
      assert.ok(!answerText.includes(served.dataDir), `${where} → ${answerText.slice(0, 300)}`);
      if (answer.result!.isError) toolErrors++;
      else results++;
    }
  }
  // Both kinds occur: the fuzz reaches the tools' own code, not only argument checking.
  assert.ok(results > 20 && toolErrors > 20, `${results} results, ${toolErrors} tool errors`);
  assert.equal(await served.healthy(), true);
});
