/**
 * The rules around client ID metadata documents that need no document host: which client_ids are
 * document URLs, how Cache-Control becomes a cache lifetime, that a host *name* resolving to
 * loopback is refused like the literal address (no request leaves), and the defaults a minimal
 * document gets.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientFromDocument, metadataDocumentUrlProblem } from '../../src/auth/oauth/client-metadata-document.js';
import { cacheSeconds, fetchMetadataDocument } from '../../src/auth/oauth/metadata-document-fetch.js';

describe('client ID metadata documents', () => {
  it('take only canonical https URLs with a path as client ids', () => {
    assert.equal(metadataDocumentUrlProblem('https://app.example.com/oauth/client.json'), null);
    assert.match(metadataDocumentUrlProblem('http://app.example.com/client.json')!, /https/);
    assert.match(metadataDocumentUrlProblem('https://app.example.com/')!, /needs a path/);
    assert.match(metadataDocumentUrlProblem('https://app.example.com/c.json#x')!, /no fragment/);
    assert.match(metadataDocumentUrlProblem('https://user:pw@app.example.com/c.json')!, /credentials/);
    assert.match(metadataDocumentUrlProblem('https://APP.example.com/c.json')!, /canonical form \(https:\/\/app\.example\.com\/c\.json\)/);
    assert.match(metadataDocumentUrlProblem('https://app.example.com/a/./c.json')!, /canonical form/);
    assert.match(metadataDocumentUrlProblem(`https://app.example.com/${'a'.repeat(200)}`)!, /at most 200/);
  });

  it('are cached as Cache-Control says, within bounds', () => {
    assert.equal(cacheSeconds('public, max-age=120'), 120);
    assert.equal(cacheSeconds('max-age=999999999'), 86_400);
    assert.equal(cacheSeconds('no-store'), 0);
    assert.equal(cacheSeconds('max-age=600, no-cache'), 0);
    assert.equal(cacheSeconds(undefined), 300);
  });

  it('are not fetched from a host name that resolves to loopback unless loopback is allowed', async () => {
    const fetched = await fetchMetadataDocument(new URL('https://localhost/client.json'), { allowLoopback: false, timeoutMs: 5_000, maxBytes: 5_120 });
    assert.equal(fetched.ok, false);
    assert.match(fetched.ok ? '' : fetched.problem, /^the host localhost resolves to (127\.0\.0\.1|::1), a loopback address; it is not fetched$/);
  });

  it('give a public, self-described client with the draft\'s defaults', () => {
    const id = 'https://app.example.com/client.json';
    const client = clientFromDocument(id, JSON.stringify({ client_id: id, client_name: ' App ', redirect_uris: ['https://app.example.com/cb'] }), 1_000, 60);
    assert.ok(typeof client !== 'string', String(client));
    assert.deepEqual(
      [client.name, client.grantTypes, client.scopes, client.secretHash, client.tokenEndpointAuthMethod, client.dynamic, client.metadataDocument],
      ['App', ['authorization_code'], ['mcp'], null, 'none', true, { fetchedAt: 1_000, freshUntil: 61_000 }],
    );
    assert.match(clientFromDocument(id, JSON.stringify({ client_id: id, client_name: 'A', redirect_uris: ['https://a.example/cb'], grant_types: ['client_credentials'] }), 0, 0) as string, /grant_types/);
  });
});
