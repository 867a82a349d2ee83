/**
 * A model request's deadline holds through garbage collection: undici can drop its link to the
 * signal it was given after a GC (nodejs/node#55428), which once left a hung model hanging the
 * question for good. Here a loopback model never answers and the heap is collected throughout.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { complete, type ModelEndpoint } from '../../src/deepsearch/chat-client.js';
import { ResearchFailure } from '../../src/deepsearch/brain.js';
import { scriptedModel } from './scripted-model.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const endpoint = (url: string, over: Partial<ModelEndpoint>): ModelEndpoint => ({
  url, model: 'test', apiKey: null, apiKeyEnvVar: '', stream: false, timeoutMs: 300, retries: 0, backoffMs: 10, ...over,
});
const REQUEST = { messages: [{ role: 'user' as const, content: 'hello' }], tools: [], toolChoice: 'auto' as const };

describe('a model request under garbage collection', () => {
  for (const stream of [false, true]) {
    it(`times out a model that never answers (${stream ? 'streamed' : 'not streamed'}) though the heap is collected meanwhile`, async () => {
      const model = await scriptedModel([]);
      model.fallback = { hang: true };
      const collecting = setInterval(collectGarbage, 25);
      const started = Date.now();
      try {
        const outcome = await Promise.race([
          complete(endpoint(model.url, { stream, retries: 1 }), REQUEST, new AbortController().signal).then(() => 'answered', (err: unknown) => err),
          new Promise((resolve) => setTimeout(resolve, 5_000, 'still waiting after 5 s')),
        ]);
        assert.ok(outcome instanceof ResearchFailure, `a timeout, not: ${String(outcome)}`);
        assert.equal(outcome.error.kind, 'ModelUnavailable');
        assert.match(outcome.error.message, /no answer within 0\.3 s, 2 attempts/);
        assert.equal(model.seen.length, 2);
        assert.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);
      } finally {
        clearInterval(collecting);
        await model.close();
      }
    });
  }

  it('ends at once when the caller aborts, whatever the deadline', async () => {
    const model = await scriptedModel([]);
    model.fallback = { hang: true };
    const caller = new AbortController();
    const collecting = setInterval(collectGarbage, 25);
    try {
      setTimeout(() => caller.abort(new Error('the asker cancelled')), 100);
      const started = Date.now();
      await assert.rejects(complete(endpoint(model.url, { timeoutMs: 60_000 }), REQUEST, caller.signal), /the asker cancelled/);
      assert.ok(Date.now() - started < 1_000);
    } finally {
      clearInterval(collecting);
      await model.close();
    }
  });
});
