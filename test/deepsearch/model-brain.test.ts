/**
 * The model researcher end to end against a real loopback HTTP server speaking the chat
 * completions protocol (scripted): tool calls run as the asking user on real repositories, answers
 * streamed and not, 429s and 5xx retried, timeouts, refusals, malformed tool calls, a model that never
 * stops calling tools, and the key: sent from the named environment variable, never stored or logged.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { researchTools } from '../../src/api/mcp/research-tools.js';
import { ANONYMOUS } from '../../src/auth/principal.js';
import { chooseBrain } from '../../src/deepsearch/choose-brain.js';
import { DeepSearch, type Asker } from '../../src/deepsearch/service.js';
import type { Question } from '../../src/model/deepsearch.js';
import { mcpServices } from '../../src/server/mcp.js';
import { openConversations } from '../../src/store/conversations.js';
import { getSiteConfig, updateSiteConfig } from '../../src/store/site-config.js';
import { APP, buildEvaluatorWorld, canRead, type EvaluatorWorld } from '../api/mcp/tools/evaluator-fixture.js';
import { scriptedModel, type ScriptedModel, type Step } from './scripted-model.js';

const ORIGIN = 'http://quarry.test';
const KEY = 'sk-test-9f8e7d6c5b4a';
const KEY_VAR = 'QUARRY_TEST_MODEL_KEY';

let world: EvaluatorWorld;
const logged: string[] = [];

function deepSearchWith(model: ScriptedModel | string, extra: Record<string, unknown> = {}, timeoutMs = 5000, stream = false): DeepSearch {
  const { store } = world.engine.engine;
  updateSiteConfig(store, getSiteConfig(store).id, JSON.stringify({
    'deepSearch.model.endpoint': typeof model === 'string' ? model : model.url, 'deepSearch.model.name': 'scripted', 'deepSearch.model.apiKeyEnvVar': KEY_VAR, ...extra,
  }));
  return new DeepSearch({
    conversations: openConversations(store),
    settings: () => world.engine.engine.settings().deepSearch,
    brainFor: (settings) => chooseBrain(settings, (name) => (name === KEY_VAR ? KEY : null), { timeoutMs, retries: 2, backoffMs: 20, stream }),
    log: (line) => logged.push(line),
  });
}

const asker: Asker = {
  userId: 2,
  tools: (signal) => researchTools({ principal: { ...ANONYMOUS, userId: 2, canRead }, services: mcpServices(world.engine.engine), origin: ORIGIN, maxAnswerTokens: 8000, signal }),
};

async function ask(deepSearch: DeepSearch, question = 'where is audit defined?'): Promise<Question> {
  const c = deepSearch.ask(asker, ORIGIN, question);
  const done = await deepSearch.waitFor(c.id, c.questions[0]!.id, 60_000, new AbortController().signal);
  const q = done!.questions[0]!;
  assert.equal(q.status, 'completed');
  return q;
}

const call = (name: string, args: unknown): { name: string; arguments: string } => ({ name, arguments: JSON.stringify(args) });
const ANSWER = 'audit is defined in [github.com/acme/app/web/audit.ts:1-3] and login calls it [github.com/acme/secret/web/login.ts:1-3].\n\nFOLLOWUPS: Who calls audit? | Is audit tested?';

function researchScript(stream: boolean): Step[] {
  return [
    { reply: { content: 'Searching first.', toolCalls: [call('nls_search', { query: 'audit request' })] }, stream },
    { reply: { toolCalls: [call('read_file', { repo: APP, path: 'web/audit.ts' })] }, stream },
    { reply: { content: ANSWER }, stream },
  ];
}

before(async () => {
  world = await buildEvaluatorWorld();
});

after(() => world.close());

describe('the model researcher', () => {
  for (const stream of [false, true]) {
    it(`runs the model's tool calls as the user and links its citations (${stream ? 'streamed' : 'one JSON reply'})`, async () => {
      const model = await scriptedModel(researchScript(stream));
      try {
        const q = await ask(deepSearchWith(model, {}, 5000, stream));
        assert.equal(q.error, undefined, JSON.stringify(q.error));
        assert.equal(model.seen.length, 3);
        assert.equal(model.seen[0]!.body.stream === true, stream);
        assert.equal(model.seen[0]!.headers.authorization, `Bearer ${KEY}`);
        assert.equal(model.seen[0]!.body.model, 'scripted');
        assert.ok((model.seen[0]!.body.tools ?? []).length === 10, 'the ten research tools are offered');
        const toolResults = model.seen[1]!.body.messages.filter((m) => m.role === 'tool');
        assert.match(toolResults[0]!.content ?? '', /web\/audit\.ts/, 'nls_search ran on the real index');
        assert.match(model.seen[2]!.body.messages.at(-1)!.content ?? '', /export function audit\(what: string\)/, 'read_file ran');
        assert.deepEqual(q.turns.map((t) => t.tool), ['nls_search', 'read_file']);
        assert.deepEqual(q.sources.map((s) => `${s.repo}/${s.path}:${s.startLine}-${s.endLine}`), [`${APP}/web/audit.ts:1-3`]);
        assert.match(q.answer!, /\[web\/audit\.ts:1-3\]\(http:\/\/quarry\.test\/github\.com\/acme\/app@[0-9a-f]{40}\/-\/blob\/web\/audit\.ts\?L1-3\)/);
        assert.match(q.answer!, /github\.com\/acme\/secret\/web\/login\.ts:1-3 \(unverified\)/, 'a repository the user cannot read is never linked');
        assert.deepEqual(q.suggestedFollowups, ['Who calls audit?', 'Is audit tested?']);
        assert.equal(q.stats.promptTokens, 300);
        assert.equal(q.stats.steps, 3);
      } finally {
        await model.close();
      }
    });
  }

  it('retries 429 (Retry-After) and 503 with backoff, then answers', async () => {
    const model = await scriptedModel([{ status: 429, retryAfter: '0' }, { status: 503 }, { reply: { content: 'It is in [github.com/acme/app/web/audit.ts:1-1].' } }]);
    try {
      const q = await ask(deepSearchWith(model));
      assert.equal(model.seen.length, 3);
      assert.equal(q.sources.length, 1);
    } finally {
      await model.close();
    }
  });

  it('gives up after its retries with the status, and names the key variable on 401', async () => {
    const model = await scriptedModel([{ status: 401, text: '{"error":"bad key"}' }]);
    try {
      const q = await ask(deepSearchWith(model));
      assert.equal(q.error?.kind, 'ModelError');
      assert.match(q.error!.message, /HTTP 401.*QUARRY_TEST_MODEL_KEY/);
      assert.equal(model.seen.length, 1, '4xx other than 429 is not retried');
    } finally {
      await model.close();
    }
  });

  it('times out a model that never answers, after its retries', async () => {
    const model = await scriptedModel([]);
    model.fallback = { hang: true };
    try {
      const q = await ask(deepSearchWith(model, {}, 300));
      assert.equal(q.error?.kind, 'ModelUnavailable');
      assert.match(q.error!.message, /no answer within 0\.3 s, 3 attempts/);
      assert.equal(model.seen.length, 3);
    } finally {
      await model.close();
    }
  });

  it('says so when the endpoint is unreachable', async () => {
    const closed = await scriptedModel([]);
    await closed.close();
    const q = await ask(deepSearchWith(closed.url));
    assert.equal(q.error?.kind, 'ModelUnavailable');
    assert.match(q.error!.message, /could not be reached \(ECONNREFUSED\)/);
  });

  it('answers a malformed tool call with what was wrong, and the model recovers', async () => {
    const model = await scriptedModel([
      { reply: { toolCalls: [{ name: 'read_file', arguments: '{"repo": "github.com/acme/app", path' }] } },
      { reply: { toolCalls: [call('read_file', { repo: APP, path: 'web/audit.ts', startLine: 1, endLine: 3 })] } },
      { reply: { content: 'See [github.com/acme/app/web/audit.ts:1-3].' } },
    ]);
    try {
      const q = await ask(deepSearchWith(model));
      const complaint = model.seen[1]!.body.messages.filter((m) => m.role === 'tool').at(-1)!.content ?? '';
      assert.match(complaint, /not valid JSON/);
      assert.equal(q.error, undefined);
      assert.equal(q.sources.length, 1);
    } finally {
      await model.close();
    }
  });

  it('stops a model that never stops calling tools at deepSearch.maxSteps, asks once without tools, and reports it', async () => {
    const model = await scriptedModel([]);
    model.fallback = { reply: { toolCalls: [call('keyword_search', { query: 'audit' })] } };
    try {
      const q = await ask(deepSearchWith(model, { 'deepSearch.maxSteps': 3 }));
      assert.equal(model.seen.length, 4);
      assert.equal(model.seen[3]!.body.tool_choice, 'none');
      assert.equal(q.stats.steps, 3);
      assert.equal(q.stats.toolCalls, 3);
      assert.equal(q.error?.kind, 'TokenLimitExceeded');
      assert.match(q.error!.message, /step limit \(site setting deepSearch\.maxSteps\)/);
    } finally {
      await model.close();
    }
  });

  it('never stores or logs the key', () => {
    const { store } = world.engine.engine;
    const everything = getSiteConfig(store).contents + JSON.stringify(openConversations(store).list({ sort: 'id', first: 1000, offset: 0 }));
    assert.ok(everything.includes('acme/app') && everything.includes(KEY_VAR), 'conversations and the setting are there to search');
    assert.equal(everything.includes(KEY), false);
    assert.equal(logged.join('\n').includes(KEY), false);
  });
});
