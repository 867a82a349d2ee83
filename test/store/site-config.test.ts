import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { parseJsonc } from '../../src/store/jsonc.js';
import type { Store } from '../../src/store/records.js';
import { getSiteConfig, getSiteConfigRevision, parseSiteConfig, updateSiteConfig } from '../../src/store/site-config.js';
import { useTempStore } from './temp-store.js';

const invalidAt = (pattern: RegExp) => (e: unknown) => isQuarryError(e, 'CONFIG_INVALID') && pattern.test(e.message);

describe('JSON with comments', () => {
  it('accepts comments and trailing commas', () => {
    const text = '// head\n{ /* a */ "a": [1, 2.5e1, -3,], "b": {"c": "x\\"y\\u0041",}, "d": null, "e": false, } // tail';
    assert.deepEqual(JSON.parse(JSON.stringify(parseJsonc(text))), { a: [1, 25, -3], b: { c: 'x"yA' }, d: null, e: false });
    assert.equal(Object.getPrototypeOf(parseJsonc('{"__proto__": {"x": 1}}')), null);
  });

  it('reports errors with line:column', () => {
    assert.throws(() => parseJsonc('{\n  "a": 1\n  "b": 2\n}'), invalidAt(/^invalid JSON at 3:3: expected "," or "}", found """$/));
    assert.throws(() => parseJsonc('{"a": tru}'), invalidAt(/^invalid JSON at 1:7: unexpected "t"$/));
    assert.throws(() => parseJsonc('{"a": 1'), invalidAt(/^invalid JSON at 1:8: expected "," or "}", found end of input$/));
    assert.throws(() => parseJsonc('{} x'), invalidAt(/at 1:4: unexpected "x" after the document/));
    assert.throws(() => parseJsonc('/* open'), invalidAt(/at 1:1: unterminated comment/));
    assert.throws(() => parseJsonc('{"a": 1, "a": 2}'), invalidAt(/at 1:10: duplicate key "a"/));
    assert.throws(() => parseJsonc('{a: 1}'), invalidAt(/at 1:2: expected a quoted key/));
  });
});

describe('site configuration', () => {
  let store: Store;
  useTempStore((opened) => {
    store = opened;
  });

  it('starts at revision 0 with every default', () => {
    const config = getSiteConfig(store);
    assert.equal(config.id, 0);
    assert.match(config.contents, /^\/\/ Quarry site configuration/);
    assert.deepEqual(config.effective, {
      mcp: { enabled: true, maxAnswerTokens: 8000, tools: { disabled: [] } },
      auth: {
        idpDynamicClientRegistrationEnabled: true, public: false, sessionExpiryHours: 720,
        oauth: { accessTokenExpirySeconds: 3600, refreshTokenExpiryDays: 90, refreshTokenReuseGraceSeconds: 30, clientMetadataDocumentsAllowLoopback: false },
      },
      externalURL: '',
      rateLimits: {
        graphQLMaxDepth: 30, graphQLMaxFieldCount: 500000, graphQLMaxAliases: 500, graphQLMaxDuplicateFieldCount: 500, graphQLMaxUniqueFieldCount: 500,
        graphQLMaxExpandedSelections: 1000, graphQLMaxSearches: 5,
        requestsPerMinute: 6000, anonymousRequestsPerMinute: 1200, concurrentRequests: 16, queuedRequests: 64, queueTimeoutSeconds: 10,
      },
      search: { defaultTimeoutSeconds: 10, limits: { maxTimeoutSeconds: 60, maxResults: 10000, maxCount: 500000 } },
      repos: { syncIntervalSeconds: 600 },
      http: { maxBodyBytes: 10485760 },
      deepSearch: {
        maxSteps: 12, maxToolCalls: 40, maxTokens: 200000, maxSeconds: 300, mcpWaitSeconds: 50,
        model: { endpoint: '', name: '', apiKeyEnvVar: '' },
        evaluator: { maxGeneratedFileSizeBytes: 10485760, maxSearchesPerExecution: 100, maxSourceReadsPerExecution: 1000, maxExecutionSeconds: 30, maxMemoryBytes: 134217728 },
      },
    });
    assert.ok(Object.isFrozen(config.effective.rateLimits));
  });

  it('stores revisions, keeps history and refuses stale writes', () => {
    const first = updateSiteConfig(store, 0, '{\n  // depth\n  "rateLimits": {"graphQLMaxDepth": 12},\n}');
    assert.equal(first, 1);
    assert.equal(getSiteConfig(store).effective.rateLimits.graphQLMaxDepth, 12);
    assert.throws(() => updateSiteConfig(store, 0, '{}'), (e) => isQuarryError(e, 'CONFIG_STALE') && /changed since revision 0 was read \(the current revision is 1\)/.test(e.message));
    assert.equal(updateSiteConfig(store, 1, '{"mcp.enabled": false}'), 2);
    const config = getSiteConfig(store);
    assert.equal(config.id, 2);
    assert.equal(config.contents, '{"mcp.enabled": false}');
    assert.equal(config.effective.rateLimits.graphQLMaxDepth, 30);
    assert.match(getSiteConfigRevision(store, 1)?.contents ?? '', /graphQLMaxDepth": 12/);
  });

  it('turns dynamic client registration off whenever MCP is off', () => {
    assert.equal(parseSiteConfig('{"mcp.enabled": false, "auth.idpDynamicClientRegistrationEnabled": true}').auth.idpDynamicClientRegistrationEnabled, false);
    assert.equal(parseSiteConfig('{"auth": {"idpDynamicClientRegistrationEnabled": false}}').auth.idpDynamicClientRegistrationEnabled, false);
    assert.equal(parseSiteConfig('{"mcp": {"enabled": true}}').auth.idpDynamicClientRegistrationEnabled, true);
  });

  it('takes 0 for the per-caller limits, which switches them off', () => {
    const limits = parseSiteConfig('{"rateLimits": {"requestsPerMinute": 0, "concurrentRequests": 0, "queuedRequests": 0}}').rateLimits;
    assert.deepEqual([limits.requestsPerMinute, limits.concurrentRequests, limits.queuedRequests, limits.anonymousRequestsPerMinute], [0, 0, 0, 1200]);
  });

  it('accepts dotted and nested spellings of the same setting', () => {
    for (const text of ['{"search.limits.maxResults": 5}', '{"search.limits": {"maxResults": 5}}', '{"search": {"limits.maxResults": 5}}', '{"search": {"limits": {"maxResults": 5}}}']) {
      assert.equal(parseSiteConfig(text).search.limits.maxResults, 5, text);
    }
  });

  it('reads mcp.tools.disabled as a list of tool names, empty by default', () => {
    assert.deepEqual(parseSiteConfig('{}').mcp.tools.disabled, []);
    for (const text of ['{"mcp.tools.disabled": ["deepsearch", "read_file"]}', '{"mcp": {"tools": {"disabled": ["deepsearch", "read_file"]}}}', '{"mcp.tools": {"disabled": ["deepsearch", "read_file"]}}']) {
      assert.deepEqual(parseSiteConfig(text).mcp.tools.disabled, ['deepsearch', 'read_file'], text);
    }
  });

  it('refuses a disabled-tools list naming a tool that does not exist, saying which and what exists', () => {
    const cases: [string, RegExp][] = [
      ['{"mcp.tools.disabled": ["read_file", "code_finder"]}', /^invalid site configuration: "mcp\.tools\.disabled" names an unknown tool "code_finder"; the tools are commit_search, compare_revisions, deepsearch, .*read_file$/],
      ['{"mcp.tools.disabled": ["sg_deepsearch"]}', /unknown tool "sg_deepsearch" \(use "deepsearch": tool names have no sg_ prefix\)/],
      ['{"mcp.tools.disabled": ["Read_File"]}', /unknown tool "Read_File"/],
      ['{"mcp.tools.disabled": "deepsearch"}', /"mcp\.tools\.disabled" must be a list of MCP tool names, not "deepsearch"/],
      ['{"mcp.tools.disabled": [1]}', /must be a list of MCP tool names, not \[1\]/],
      ['{"mcp": {"tools": true}}', /"mcp\.tools" must be an object/],
    ];
    for (const [text, pattern] of cases) assert.throws(() => parseSiteConfig(text), invalidAt(pattern), text);
  });

  it('takes a deep search model by URL, name and the name of its key variable, and refuses a key put in its place', () => {
    const model = parseSiteConfig('{"deepSearch.model": {"endpoint": "http://127.0.0.1:11434/v1", "name": "qwen", "apiKeyEnvVar": "OPENAI_API_KEY"}}').deepSearch.model;
    assert.deepEqual({ ...model }, { endpoint: 'http://127.0.0.1:11434/v1', name: 'qwen', apiKeyEnvVar: 'OPENAI_API_KEY' });
    const cases: [string, RegExp][] = [
      ['{"deepSearch.model.endpoint": "127.0.0.1:11434", "deepSearch.model.name": "m"}', /"deepSearch\.model\.endpoint" must be an http\(s\) URL/],
      ['{"deepSearch.model.endpoint": "http://h/v1"}', /"deepSearch\.model\.name" must name the model/],
      ['{"deepSearch.model.endpoint": "http://h/v1", "deepSearch.model.name": "m", "deepSearch.model.apiKeyEnvVar": "sk-proj-abc"}', /must be the name of an environment variable \(the key itself never goes in the configuration\)/],
      ['{"deepSearch.model.name": 5}', /"deepSearch\.model\.name" must be a string, not 5/],
    ];
    for (const [text, pattern] of cases) assert.throws(() => parseSiteConfig(text), invalidAt(pattern), text);
  });

  it('refuses unknown keys, wrong types, double settings and invalid JSON, keeping the revision', () => {
    const cases: [string, RegExp][] = [
      ['{"mcp.enable": true}', /unknown setting "mcp\.enable" \(known: mcp\.enabled, /],
      ['{"mcp.enabled": "yes"}', /"mcp\.enabled" must be a boolean, not "yes"/],
      ['{"rateLimits": {"graphQLMaxDepth": 0}}', /"rateLimits\.graphQLMaxDepth" must be a positive integer, not 0/],
      ['{"http.maxBodyBytes": 1.5}', /must be a positive integer, not 1\.5/],
      ['{"rateLimits.requestsPerMinute": -1}', /"rateLimits\.requestsPerMinute" must be a non-negative integer, not -1/],
      ['{"rateLimits.queueTimeoutSeconds": 0}', /"rateLimits\.queueTimeoutSeconds" must be a positive integer, not 0/],
      ['{"auth.public": "yes"}', /"auth\.public" must be a boolean, not "yes"/],
      ['{"rateLimits": 5}', /"rateLimits" must be an object/],
      ['{"externalURL": "https://quarry.example.com/sub"}', /"externalURL" must be an http\(s\) origin such as "https:\/\/quarry\.example\.com" \(no path\)/],
      ['{"externalURL": "ftp://quarry.example.com"}', /"externalURL" must be an http\(s\) origin/],
      ['{"mcp.enabled": true, "mcp": {"enabled": false}}', /"mcp\.enabled" is set twice/],
      ['{"mcp.tools.disabled": ["nope"]}', /"mcp\.tools\.disabled" names an unknown tool "nope"/],
      ['{"search.defaultTimeoutSeconds": 90}', /must not exceed "search\.limits\.maxTimeoutSeconds"/],
      ['{"deepSearch.evaluator.maxMemoryBytes": 1048576}', /"deepSearch\.evaluator\.maxMemoryBytes" must be at least 33554432 \(32 MiB\), not 1048576/],
      ['{"deepSearch": {"evaluator": {"maxExecutionSeconds": 7200}}}', /"deepSearch\.evaluator\.maxExecutionSeconds" must be at most 3600, not 7200/],
      ['{"deepSearch.evaluator.maxSearchesPerExecution": 0}', /must be a positive integer, not 0/],
      ['[]', /the document must be a JSON object/],
      ['{\n"mcp.enabled": true,,\n}', /^invalid JSON at 2:21: expected a quoted key, found ","$/],
    ];
    for (const [text, pattern] of cases) assert.throws(() => updateSiteConfig(store, 2, text), invalidAt(pattern), text);
    assert.equal(getSiteConfig(store).id, 2);
  });
});
