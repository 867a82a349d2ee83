/**
 * The offline researcher and the conversation service over real repositories (git, LMDB index
 * and store): cited answers, the asking user's permissions, who reads a conversation, limits,
 * follow-ups, cancel, and questions a stopped server left running.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { researchTools } from '../../src/api/mcp/research-tools.js';
import { ANONYMOUS } from '../../src/auth/principal.js';
import { INTERRUPTED, type Asker, type DeepSearch } from '../../src/deepsearch/service.js';
import type { Conversation, Question } from '../../src/model/deepsearch.js';
import { createDeepSearch, mcpServices } from '../../src/server/mcp.js';
import { openConversations } from '../../src/store/conversations.js';
import { getSiteConfig, updateSiteConfig } from '../../src/store/site-config.js';
import { APP, buildEvaluatorWorld, canRead, SECRET, type EvaluatorWorld } from '../api/mcp/tools/evaluator-fixture.js';

const ORIGIN = 'http://quarry.test';
const OWNER = 2;
const OTHER = 3;

let world: EvaluatorWorld;
let deepSearch: DeepSearch;

function asker(userId: number, read: (repo: string) => boolean): Asker {
  const services = mcpServices(world.engine.engine);
  const principal = { ...ANONYMOUS, userId, canRead: read };
  return { userId, tools: (signal) => researchTools({ principal, services, origin: ORIGIN, maxAnswerTokens: 8000, signal }) };
}

async function answered(conversation: Conversation, index = 0): Promise<Question> {
  const q = conversation.questions[index]!;
  const done = await deepSearch.waitFor(conversation.id, q.id, 60_000, new AbortController().signal);
  const question = done!.questions.find((x) => x.id === q.id)!;
  assert.equal(question.status, 'completed');
  return question;
}

function setConfig(settings: Record<string, unknown>): void {
  const { store } = world.engine.engine;
  updateSiteConfig(store, getSiteConfig(store).id, JSON.stringify(settings));
}

before(async () => {
  world = await buildEvaluatorWorld();
  deepSearch = createDeepSearch(world.engine.engine, () => {});
});

after(() => world.close());

describe('the offline researcher', () => {
  it('answers with the defining file cited as a link to its lines, and records its tool calls', async () => {
    const q = await answered(deepSearch.ask(asker(OWNER, canRead), ORIGIN, 'where is the audit function defined that handleRequest calls?'));
    assert.equal(q.error, undefined);
    const files = q.sources.map((s) => `${s.repo}/${s.path}`);
    assert.ok(files.includes(`${APP}/web/audit.ts`), files.join(', '));
    const audit = q.sources.find((s) => s.path === 'web/audit.ts')!;
    assert.match(audit.link, new RegExp(`^${ORIGIN}/github\\.com/acme/app@[0-9a-f]{40}/-/blob/web/audit\\.ts\\?L\\d+(-\\d+)?$`));
    assert.ok(q.answer!.includes(audit.link), 'the answer links the source it cites');
    assert.match(q.answer!, /export function audit\(what: string\)/, 'the key lines are quoted');
    assert.ok(q.turns.length >= 2 && q.turns.some((t) => t.tool === 'go_to_definition'), q.turns.map((t) => t.tool).join());
    assert.equal(q.stats.toolCalls, q.turns.length);
    assert.ok(q.suggestedFollowups.length > 0);
  });

  it('never cites or quotes a repository its owner may not read, though a reader of it gets it cited', async () => {
    const question = 'which handleRequest adds classified to the request?';
    const [blocked, reader] = await Promise.all([
      answered(deepSearch.ask(asker(OWNER, canRead), ORIGIN, question)),
      answered(deepSearch.ask(asker(OTHER, () => true), ORIGIN, question)),
    ]);
    assert.ok(reader.sources.some((s) => s.repo === SECRET), 'the data is there for a reader');
    assert.ok(blocked.sources.every((s) => s.repo !== SECRET));
    assert.doesNotMatch(JSON.stringify(blocked), /acme\/secret|"classified /);
  });

  it('stops at the tool call limit and still answers from what it read', async () => {
    setConfig({ 'deepSearch.maxToolCalls': 1 });
    try {
      const q = await answered(deepSearch.ask(asker(OWNER, canRead), ORIGIN, 'where is the audit function defined that handleRequest calls?'));
      assert.equal(q.stats.toolCalls, 1);
      assert.ok(q.answer !== undefined);
    } finally {
      setConfig({});
    }
  });

  it('keeps the conversation scope in a follow-up', async () => {
    const first = deepSearch.ask(asker(OWNER, () => true), ORIGIN, `repo:^github\\.com/acme/secret$ where is f12 used?`);
    await answered(first);
    const followed = deepSearch.followUp(asker(OWNER, () => true), first.id, 'and how is handleRequest written?')!;
    const q = await answered(followed, 1);
    assert.ok(q.sources.length > 0 && q.sources.every((s) => s.repo === SECRET), q.sources.map((s) => s.repo).join());
  });
});

describe('who reads a conversation', () => {
  it('by id: the owner and site admins; another user finds nothing', async () => {
    const c = deepSearch.ask(asker(OWNER, canRead), ORIGIN, 'where is audit defined?');
    await answered(c);
    const stored = deepSearch.conversations.get(c.id);
    assert.equal(deepSearch.readable({ userId: OWNER, siteAdmin: false }, stored)?.id, c.id);
    assert.equal(deepSearch.readable({ userId: 99, siteAdmin: true }, stored)?.id, c.id);
    assert.equal(deepSearch.readable({ userId: OTHER, siteAdmin: false }, stored), undefined);
    assert.equal(deepSearch.readable({ userId: null, siteAdmin: false }, stored), undefined);
  });

  it('a read token opens only its own conversation', async () => {
    const a = deepSearch.ask(asker(OWNER, canRead), ORIGIN, 'where is audit defined?');
    const b = deepSearch.ask(asker(OTHER, canRead), ORIGIN, 'where is check defined?');
    await Promise.all([answered(a), answered(b)]);
    assert.equal(deepSearch.conversations.byReadToken(a.readToken)?.id, a.id);
    assert.equal(deepSearch.conversations.byReadToken(b.readToken.toUpperCase())?.id, b.id);
    assert.equal(deepSearch.conversations.byReadToken('00000000-0000-4000-8000-000000000000'), undefined);
    assert.notEqual(a.readToken, b.readToken);
  });
});

describe('runs that outlive the server', () => {
  it('a question left processing by a killed server is marked interrupted at the next start, never stuck', () => {
    const store = openConversations(world.engine.engine.store);
    const left = store.create(OWNER, ORIGIN, 'asked just before the crash');
    store.updateQuestion(left.id, left.questions[0]!.id, (q) => ({ ...q, status: 'processing' }));
    createDeepSearch(world.engine.engine, () => {});
    const after = store.get(left.id)!.questions[0]!;
    assert.equal(after.status, 'completed');
    assert.deepEqual(after.error, INTERRUPTED);
    assert.equal(store.unfinished().some((c) => c.id === left.id), false);
  });

  it('cancel ends a question with the Canceled kind', async () => {
    const c = deepSearch.ask(asker(OWNER, canRead), ORIGIN, 'where is audit defined?');
    deepSearch.cancel(c.id, c.questions[0]!.id);
    const q = await answered(c);
    assert.equal(q.error?.kind, 'Canceled');
  });
});
