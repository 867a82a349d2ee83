/**
 * The MCP framework's pure parts: the endpoint table against issue 4's table, argument checking,
 * the answer budget and the text format helpers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnswerBuilder, estimateTokens } from '../../../src/api/mcp/answer.js';
import { checkArguments, objectSchema } from '../../../src/api/mcp/arguments.js';
import { blobUrl, fileHeader, numberLines, splitLines, truncateLine } from '../../../src/api/mcp/format.js';
import { ENDPOINT_TABLE, IMPLEMENTED, toolsFor } from '../../../src/api/mcp/registry.js';

describe('the tool registry', () => {
  it('places all fourteen tools exactly as the issue table says', () => {
    const core = ['commit_search', 'diff_search', 'evaluator', 'keyword_search', 'list_files', 'list_refs', 'list_repos', 'nls_search', 'read_file'];
    const expected: Record<string, string[]> = {};
    for (const name of core) expected[name] = ['core', 'all'];
    for (const name of ['compare_revisions', 'find_references', 'get_contributor_repos', 'go_to_definition']) expected[name] = ['all'];
    expected['deepsearch'] = ['all', 'deepsearch'];
    expected['deepsearch_read'] = ['core', 'all', 'deepsearch'];
    assert.deepEqual(Object.fromEntries(Object.entries(ENDPOINT_TABLE).map(([k, v]) => [k, [...v]])), expected);
  });

  it('serves the five tools of this issue on the core and full endpoints, and code navigation on the full one only', () => {
    const names = (endpoint: 'core' | 'all' | 'deepsearch') => toolsFor(endpoint, { disableDeepsearchTool: false }).map((t) => t.name).sort();
    const core = names('core');
    const all = names('all');
    for (const name of ['keyword_search', 'list_files', 'list_repos', 'nls_search', 'read_file']) assert.ok(core.includes(name) && all.includes(name), name);
    for (const name of ['find_references', 'go_to_definition']) assert.ok(all.includes(name) && !core.includes(name), name);
    assert.deepEqual(core.filter((name) => !all.includes(name)), [], 'the full endpoint serves every core tool');
    assert.deepEqual(names('deepsearch'), ['deepsearch', 'deepsearch_read']);
    for (const tool of IMPLEMENTED) assert.match(tool.name, /^[A-Za-z0-9._-]{1,128}$/);
  });

  it('refuses a tool missing from the table rather than guessing where it belongs', () => {
    const stray = { ...IMPLEMENTED[0]!, name: 'stray' };
    assert.throws(() => toolsFor('core', { disableDeepsearchTool: false }, [stray]), /stray is missing from the endpoint table/);
  });
});

describe('argument checking', () => {
  const schema = objectSchema({
    repo: { type: 'string', description: 'r' },
    limit: { type: 'integer', description: 'l', minimum: 1, maximum: 10 },
    exact: { type: 'boolean', description: 'e' },
    repos: { type: 'array', description: 'rs', items: { type: 'string' }, maxItems: 2 },
  }, ['repo']);

  it('accepts valid arguments and drops nulls', () => {
    assert.deepEqual(checkArguments(schema, { repo: 'a', limit: 3, exact: false, repos: ['x'], after: undefined }), { ok: false, message: 'Invalid arguments: unknown argument "after" (known: repo, limit, exact, repos).' });
    assert.deepEqual(checkArguments(schema, { repo: 'a', limit: null }), { ok: true, args: { repo: 'a' } });
  });

  it('names every problem with its argument', () => {
    assert.deepEqual(checkArguments(schema, { limit: 11, exact: 'yes', repos: ['a', 'b', 'c'] }), {
      ok: false,
      message: 'Invalid arguments: "repo" is required; "limit" must be at most 10; "exact" must be a boolean, not "yes"; "repos" may hold at most 2 values.',
    });
    assert.deepEqual(checkArguments(schema, { repo: 1.5, limit: 2.5 }), { ok: false, message: 'Invalid arguments: "repo" must be a string, not 1.5; "limit" must be an integer, not 2.5.' });
    assert.deepEqual(checkArguments(schema, []), { ok: false, message: 'Invalid arguments: arguments must be a JSON object, not [].' });
    assert.deepEqual(checkArguments(objectSchema({}, []), undefined), { ok: true, args: {} });
  });

  it('treats prototype names as unknown arguments, never inherited values', () => {
    const known = '(known: repo, limit, exact, repos)';
    const raw = JSON.parse('{"repo":"a","__proto__":{"repo":"b"},"constructor":1,"toString":"x","hasOwnProperty":null}') as unknown;
    assert.deepEqual(checkArguments(schema, raw), {
      ok: false,
      message: `Invalid arguments: unknown argument "__proto__" ${known}; unknown argument "constructor" ${known}; unknown argument "toString" ${known}; unknown argument "hasOwnProperty" ${known}.`,
    });
    assert.deepEqual(checkArguments(schema, Object.create({ repo: 'inherited' })), { ok: false, message: 'Invalid arguments: "repo" is required.' });
    assert.deepEqual(checkArguments(schema, { repo: null }), { ok: false, message: 'Invalid arguments: "repo" is required.' });
  });

  it('describes deeply nested and large values without walking them, and caps the problems listed', () => {
    let nested: unknown = [];
    for (let i = 0; i < 200_000; i++) nested = [nested];
    assert.deepEqual(checkArguments(schema, { repo: nested }), { ok: false, message: 'Invalid arguments: "repo" must be a string, not an array of 1 value.' });
    assert.deepEqual(checkArguments(schema, { repo: { a: { b: 1 } } }), { ok: false, message: 'Invalid arguments: "repo" must be a string, not an object.' });
    const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
    const message = (checkArguments(schema, { repo: 'a', ...many }) as { message: string }).message;
    assert.equal(message.match(/unknown argument/g)?.length, 8);
    assert.ok(message.endsWith('; and 992 more.'), message);
  });
});

describe('answers and their format', () => {
  it('adds whole sections while they fit and counts the rest', () => {
    const builder = new AnswerBuilder(200, 100);
    assert.equal(builder.add('a'.repeat(300)), true);
    assert.equal(builder.add('b'.repeat(150)), false);
    assert.equal(builder.add('c'.repeat(100)), true);
    assert.equal(builder.omitted, 1);
    assert.equal(builder.finish('1 section left out', '\n'), `${'a'.repeat(300)}\n${'c'.repeat(100)}\n\n1 section left out\n`);
    assert.equal(estimateTokens('abcde'), 2);
  });

  it('writes Sourcegraph headers, numbered lines and links', () => {
    assert.equal(fileHeader('github.com/a/b', 'src/x.ts'), '# github.com/a/b \u2013 src/x.ts');
    assert.equal(numberLines(['one', '\ttwo'], 9), '9: one\n10: \ttwo\n');
    assert.deepEqual(splitLines('a\r\nb\n'), ['a', 'b']);
    assert.deepEqual(splitLines('a\n\nb'), ['a', '', 'b']);
    assert.equal(truncateLine('abcdef', 3), 'abc ... [line truncated]');
    assert.equal(truncateLine('ab\u{1F600}', 3), 'ab ... [line truncated]', 'never splits a surrogate pair');
    assert.equal(blobUrl('http://h', 'github.com/a/b', 'c0ffee', 'dir/a b.ts', { start: 2, end: 9 }), 'http://h/github.com/a/b@c0ffee/-/blob/dir/a%20b.ts%3FL2-9');
  });
});
