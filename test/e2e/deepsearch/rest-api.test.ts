/**
 * The legacy deep search REST API through a real `quarry serve` over HTTP: a conversation starts
 * processing and completes with a cited answer; only its owner and site admins read it by id (bob
 * gets the 404 of an id that does not exist); its read token opens that one conversation to
 * anyone; lists filter and page with cursors; follow-ups, cancel and delete; JSON errors for bad input.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INVALID_TOKEN, PRIVATE_MODE } from '../../../src/auth/authorize.js';
import { OPEN, SECRET } from '../restricted-instance.js';
import { API, QUESTION, startDeepSearchInstance, type DeepSearchInstance } from './deepsearch-fixture.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let ds: DeepSearchInstance;
/** Alice's first conversation, completed. */
let first: any;

before(async () => {
  ds = await startDeepSearchInstance();
}, { timeout: 120_000 });

after(async () => {
  await ds?.close();
});

async function ask(token: string, question: string): Promise<any> {
  const started = await ds.api(token, 'POST', API, { question });
  assert.equal(started.status, 202, started.text);
  return started.json;
}

describe('a conversation through the REST API', () => {
  it('starts processing (202) and completes with an answer citing only what the asker may read', { timeout: 120_000 }, async () => {
    const started = await ask(ds.alice, QUESTION);
    assert.ok(Number.isSafeInteger(started.id) && started.id > 0);
    assert.equal(started.questions.length, 1);
    assert.equal(started.questions[0].status, 'processing');
    assert.equal(started.questions[0].conversation_id, started.id);
    assert.equal(started.questions[0].question, QUESTION);
    assert.match(started.read_token, UUID);
    assert.equal(started.share_url, `${ds.url}/deepsearch/${started.read_token}`);
    assert.equal(started.shared_url, `${ds.url}/deepsearch/shared/${started.read_token}`);
    assert.deepEqual(started.viewer, { is_owner: true });

    first = await ds.completed(ds.alice, started.id);
    const [q] = first.questions;
    assert.equal(q.status, 'completed');
    assert.equal(q.error, undefined);
    assert.match(q.answer, new RegExp(`\\(${ds.url}/github\\.com/acme/open@[0-9a-f]{40}/-/blob/web/router\\.go\\?L\\d+`));
    assert.ok(q.sources.length > 0 && q.sources.every((s: { repo: string; type: string }) => s.repo === OPEN && s.type === 'File'));
    assert.ok(!JSON.stringify(first).includes(SECRET), 'nothing of the repository alice may not read');
    assert.ok(q.stats.tool_calls > 0 && q.stats.tool_calls === q.turns.length, JSON.stringify(q.stats));
    assert.ok(q.turns.every((t: { role: string; tool: string }) => t.role === 'tool' && typeof t.tool === 'string'));
  });

  it('is read by id by its owner and site admins only; bob gets the same 404 as for an id that does not exist', async () => {
    const byAdmin = await ds.api(ds.admin, 'GET', `${API}/${first.id}`);
    assert.equal(byAdmin.status, 200);
    assert.deepEqual(byAdmin.json.viewer, { is_owner: false });
    assert.equal(byAdmin.json.questions[0].answer, first.questions[0].answer);
    const byBob = await ds.api(ds.bob, 'GET', `${API}/${first.id}`);
    const missing = await ds.api(ds.bob, 'GET', `${API}/999999`);
    assert.equal(byBob.status, 404);
    assert.equal(missing.status, 404);
    assert.deepEqual(byBob.json, { error: `No deep search conversation ${first.id} that you can read.` });
    assert.deepEqual(missing.json, { error: 'No deep search conversation 999999 that you can read.' });
    assert.equal(byBob.headers.get('content-type'), 'application/json');

    const bobQuestion = first.questions[0].id;
    assert.equal((await ds.api(ds.bob, 'POST', `${API}/${first.id}/questions/${bobQuestion}/cancel`)).status, 404);
    assert.equal((await ds.api(ds.bob, 'POST', `${API}/${first.id}/questions`, { question: 'and then?' })).status, 404);
    assert.equal((await ds.api(ds.bob, 'DELETE', `${API}/${first.id}`)).status, 404);
    assert.equal((await ds.api(ds.alice, 'GET', `${API}/${first.id}`)).status, 200, 'bob deleted nothing');
  });

  it('lists the caller\'s own conversations; a read token opens that one conversation to anyone', async () => {
    const bobs = await ask(ds.bob, 'where is dispatch defined?');
    const aliceList = (await ds.api(ds.alice, 'GET', API)).json;
    assert.ok(aliceList.conversations.some((c: { id: number }) => c.id === first.id));
    assert.ok(aliceList.conversations.every((c: { user_id: number }) => c.user_id === first.user_id), 'only her own');
    const bobList = (await ds.api(ds.bob, 'GET', API)).json;
    assert.deepEqual(bobList.conversations.map((c: { id: number }) => c.id), [bobs.id]);
    const otherUser = await ds.api(ds.bob, 'GET', `${API}?filter_user_id=${first.user_id}`);
    assert.equal(otherUser.status, 200);
    assert.deepEqual(otherUser.json.conversations, [], 'a user lists no one else\'s');

    const byToken = await ds.api(ds.bob, 'GET', `${API}?filter_read_token=${first.read_token}`);
    assert.equal(byToken.status, 200, byToken.text);
    assert.deepEqual(byToken.json.conversations.map((c: { id: number }) => c.id), [first.id]);
    assert.deepEqual(byToken.json.conversations[0].viewer, { is_owner: false });
    assert.equal(byToken.json.total_count, 1);
    const unknownToken = await ds.api(ds.bob, 'GET', `${API}?filter_read_token=00000000-0000-4000-8000-000000000000`);
    assert.deepEqual(unknownToken.json.conversations, []);
    const tokenOfAnother = await ds.api(ds.bob, 'GET', `${API}?filter_read_token=${first.read_token}&filter_id=${bobs.id}`);
    assert.deepEqual(tokenOfAnother.json.conversations, [], 'the token opens its own conversation, not another id');

    const adminOfAlice = (await ds.api(ds.admin, 'GET', `${API}?filter_user_id=${first.user_id}`)).json;
    assert.ok(adminOfAlice.conversations.length > 0 && adminOfAlice.conversations.every((c: { user_id: number }) => c.user_id === first.user_id));
    const adminAll = (await ds.api(ds.admin, 'GET', API)).json;
    assert.ok([first.id, bobs.id].every((id) => adminAll.conversations.some((c: { id: number }) => c.id === id)), 'admins list everyone\'s');
    assert.deepEqual((await ds.api(ds.alice, 'GET', `${API}?filter_is_starred=true`)).json.conversations, [], 'nothing is starred in Quarry');
    await ds.completed(ds.bob, bobs.id);
  });

  it('pages with page_first and page_after, in the order asked, each conversation once', { timeout: 120_000 }, async () => {
    for (const q of ['where is dispatch called?', 'what does Router return?', 'what is in the README?']) await ask(ds.alice, q);
    const all = (await ds.api(ds.alice, 'GET', `${API}?sort=id&page_first=100`)).json;
    const ids = all.conversations.map((c: { id: number }) => c.id);
    assert.ok(ids.length >= 4);
    assert.deepEqual(ids, [...ids].sort((a: number, b: number) => a - b));
    assert.equal(all.total_count, ids.length);
    assert.deepEqual(all.page_info, { has_next_page: false, end_cursor: null });
    const paged: number[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page: any = (await ds.api(ds.alice, 'GET', `${API}?sort=id&page_first=2${after === null ? '' : `&page_after=${encodeURIComponent(after)}`}`)).json;
      assert.ok(page.conversations.length <= 2);
      assert.equal(page.total_count, ids.length);
      paged.push(...page.conversations.map((c: { id: number }) => c.id));
      after = page.page_info.end_cursor;
      assert.equal(page.page_info.has_next_page, after !== null);
      pages++;
    } while (after !== null && pages < 10);
    assert.deepEqual(paged, ids);
    assert.equal(pages, Math.ceil(ids.length / 2));
    const descending = (await ds.api(ds.alice, 'GET', `${API}?sort=-id`)).json.conversations.map((c: { id: number }) => c.id);
    assert.deepEqual(descending, [...ids].reverse());

    const firstPage = (await ds.api(ds.alice, 'GET', `${API}?sort=id&page_first=2`)).json;
    const foreign = await ds.api(ds.alice, 'GET', `${API}?sort=-created_at&page_first=2&page_after=${encodeURIComponent(firstPage.page_info.end_cursor)}`);
    assert.equal(foreign.status, 400);
    assert.match(foreign.json.error, /^page_after: The after cursor belongs to/);
    for (const ask of await Promise.all(all.conversations.map((c: { id: number }) => ds.completed(ds.alice, c.id)))) assert.equal(ask.questions[0].status, 'completed');
  });

  it('adds a follow-up that continues the conversation; only the owner asks one', { timeout: 120_000 }, async () => {
    const added = await ds.api(ds.alice, 'POST', `${API}/${first.id}/questions`, { conversation_id: first.id, question: 'and what does dispatch return?' });
    assert.equal(added.status, 202, added.text);
    assert.equal(added.json.conversation_id, first.id);
    assert.equal(added.json.status, 'processing');
    assert.equal(added.json.question, 'and what does dispatch return?');
    const done = await ds.completed(ds.alice, first.id);
    assert.equal(done.questions.length, 2);
    assert.equal(done.questions[1].id, added.json.id);
    assert.match(done.questions[1].answer, /dispatch/);

    const mismatch = await ds.api(ds.alice, 'POST', `${API}/${first.id}/questions`, { conversation_id: first.id + 1000, question: 'x?' });
    assert.equal(mismatch.status, 400);
    assert.match(mismatch.json.error, /does not match the conversation/);
    const byAdmin = await ds.api(ds.admin, 'POST', `${API}/${first.id}/questions`, { question: 'and the secret one?' });
    assert.equal(byAdmin.status, 403);
    assert.match(byAdmin.json.error, /Only the owner/);
  });
});

describe('cancel and delete', () => {
  it('cancels a question still processing (error Canceled), refuses a follow-up meanwhile, and deletes', { timeout: 120_000 }, async () => {
    await ds.useModel([], { hang: true });
    try {
      const started = await ask(ds.alice, 'how does the router dispatch?');
      const questionId = started.questions[0].id;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const still = await ds.api(ds.alice, 'GET', `${API}/${started.id}`);
      assert.equal(still.json.questions[0].status, 'processing');
      const meanwhile = await ds.api(ds.alice, 'POST', `${API}/${started.id}/questions`, { question: 'and then?' });
      assert.equal(meanwhile.status, 409);
      assert.match(meanwhile.json.error, new RegExp(`Question ${questionId} of this conversation is still processing`));

      const canceled = await ds.api(ds.alice, 'POST', `${API}/${started.id}/questions/${questionId}/cancel`);
      assert.equal(canceled.status, 200, canceled.text);
      assert.equal(canceled.json.status, 'completed');
      assert.equal(canceled.json.error.kind, 'Canceled');
      const after = await ds.completed(ds.alice, started.id);
      assert.equal(after.questions[0].error.kind, 'Canceled', 'the run ending later does not overwrite the cancel');
      assert.equal((await ds.api(ds.alice, 'POST', `${API}/${started.id}/questions/${questionId + 1000}/cancel`)).status, 404);

      const deleted = await ds.api(ds.alice, 'DELETE', `${API}/${started.id}`);
      assert.equal(deleted.status, 200);
      assert.deepEqual(deleted.json, {});
      assert.equal((await ds.api(ds.alice, 'GET', `${API}/${started.id}`)).status, 404);
      assert.ok(!(await ds.api(ds.alice, 'GET', `${API}?page_first=100`)).json.conversations.some((c: { id: number }) => c.id === started.id));
      assert.deepEqual((await ds.api(ds.bob, 'GET', `${API}?filter_read_token=${started.read_token}`)).json.conversations, [], 'its read token opens nothing any more');
    } finally {
      await ds.useModel(null);
    }
  });

  it('lets a site admin delete another user\'s conversation', { timeout: 60_000 }, async () => {
    const bobs = await ask(ds.bob, 'where is Router?');
    await ds.completed(ds.bob, bobs.id);
    assert.equal((await ds.api(ds.admin, 'DELETE', `${API}/${bobs.id}`)).status, 200);
    assert.equal((await ds.api(ds.bob, 'GET', `${API}/${bobs.id}`)).status, 404);
  });
});

describe('refusals', () => {
  it('needs a user:all token: none (on this private site), an mcp-only one and an unknown one get 401', async () => {
    const none = await ds.api(null, 'GET', API);
    assert.equal(none.status, 401);
    assert.equal(none.text, `${PRIVATE_MODE}\n`);
    for (const token of [ds.aliceMcp, 'sgp_0000000000000000000000000000000000000000']) {
      const refused = await ds.api(token, 'POST', API, { question: 'x?' });
      assert.equal(refused.status, 401);
      assert.equal(refused.text, `${INVALID_TOKEN}\n`);
    }
  });

  it('answers bad input with a JSON error saying what to change', async () => {
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', API, 'not json', 400, /must be a JSON object such as \{"question"/],
      ['POST', API, [1], 400, /must be a JSON object/],
      ['POST', API, {}, 400, /needs "question", a string/],
      ['POST', API, { question: '   ' }, 400, /question is empty/],
      ['POST', API, { question: 'x'.repeat(4001) }, 400, /question is 4001 characters; keep it under 4000/],
      ['GET', `${API}/abc`, undefined, 400, /conversation id must be a positive integer, not "abc"/],
      ['POST', `${API}/1/questions/x/cancel`, undefined, 400, /question id must be a positive integer/],
      ['GET', `${API}/1/nope`, undefined, 404, /No such deep search endpoint/],
      ['PUT', API, { question: 'x?' }, 405, /PUT is not allowed on \/\.api\/deepsearch\/v1; use GET or POST/],
      ['GET', `${API}?sort=name`, undefined, 400, /sort must be one of id, -id, created_at, -created_at, updated_at, -updated_at/],
      ['GET', `${API}?page_first=0`, undefined, 400, /page_first must be a positive integer/],
      ['GET', `${API}?page_first=101`, undefined, 400, /page_first must be at most 100/],
      ['GET', `${API}?page_after=garbage`, undefined, 400, /page_after: Invalid after cursor/],
      ['GET', `${API}?filter_read_token=abc`, undefined, 400, /filter_read_token must be a conversation's read token/],
      ['GET', `${API}?filter_is_starred=yes`, undefined, 400, /filter_is_starred must be true or false/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const answer = await ds.api(ds.alice, method, path, body);
      assert.equal(answer.status, status, `${method} ${path}: ${answer.text}`);
      assert.equal(answer.headers.get('content-type'), 'application/json');
      assert.match(answer.json.error, message, `${method} ${path}`);
    }
    assert.equal((await ds.api(ds.alice, 'PUT', API)).headers.get('allow'), 'GET, POST');
    const serverAlive = await ds.api(ds.alice, 'GET', `${API}/${first.id}`);
    assert.equal(serverAlive.status, 200);
  });
});
