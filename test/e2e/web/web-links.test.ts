/**
 * The links the APIs hand out open their pages: the `URL:` lines of MCP answers (read_file with a
 * line range, list_files, diff_search), the sources a deep search answer cites, and GraphQL `url`
 * fields (repository, tree, blob, commit; search results, symbols and their locations, commit
 * results, branches and tags), each followed on a real server to a 200 page that shows
 * what the link names.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HISTORY, startHistoryInstance, type HistoryFixture } from './repo-fixture.js';

let fixture: HistoryFixture;
let url = '';

before(async () => {
  fixture = await startHistoryInstance();
  url = fixture.instance.server.url;
});

after(async () => fixture.close());

async function callTool(name: string, args: Record<string, unknown>): Promise<string> {
  const client = new Client({ name: 'web-links-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/.api/mcp`), { requestInit: { headers: { Authorization: `token ${fixture.instance.alice}` } } }));
  try {
    const result = await client.callTool({ name, arguments: args });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    return (result.content as { text: string }[])[0]!.text;
  } finally {
    await client.close();
  }
}

/** Follows a link (absolute, or a path on this server) and answers the page's main content. */
async function open(link: string): Promise<string> {
  const answer = await fetch(new URL(link, url));
  const body = await answer.text();
  assert.equal(answer.status, 200, `${link}: ${body.slice(0, 400)}`);
  assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
  return body.slice(body.indexOf('<main'));
}

function urlLine(text: string): string {
  const found = /^URL: (\S+)$/m.exec(text)?.[1];
  assert.ok(found, text);
  return found;
}

test('read_file\'s URL with a line range opens the file view with exactly those lines selected', async () => {
  const text = await callTool('read_file', { repo: HISTORY, path: 'router.go', startLine: 8, endLine: 10 });
  const link = urlLine(text);
  assert.match(link, /\/-\/blob\/router\.go%3FL8-10$/);
  const page = await open(link);
  assert.deepEqual([...page.matchAll(/<tr id="L(\d+)" class="sel">/g)].map((m) => Number(m[1])), [8, 9, 10]);
  assert.match(page, /NewRouter/);
});

test('list_files\' URL opens the tree view listing the directory', async () => {
  const page = await open(urlLine(await callTool('list_files', { repo: HISTORY, path: 'docs' })));
  assert.match(page, />guide\.txt<\/a>/);
  assert.doesNotMatch(page, />router\.go<\/a>/);
});

test('diff_search\'s commit links open the commit page with its message and diff', async () => {
  const text = await callTool('diff_search', { repos: [HISTORY], pattern: 'other := NewRouter', added: true });
  const links = [...text.matchAll(/(https?:\/\/\S+\/-\/commit\/[0-9a-f]{40})/g)].map((m) => m[1]!);
  assert.deepEqual(links.map((l) => l.slice(-40)), [fixture.v2], text);
  const page = await open(links[0]!);
  assert.match(page, /<h2>Use a second router<\/h2>/);
  assert.match(page, /\+<\/span>\tother := NewRouter\(\)/);
});

test('GraphQL url fields of a repository, a tree, a blob and a commit open their pages', async () => {
  const query = `{ repository(name: "${HISTORY}") { url commit(rev: "v1") { url oid tree(path: "") { url entries { path url } } blob(path: "main.go") { url } } } }`;
  const answer = await fetch(`${url}/.api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `token ${fixture.instance.alice}` }, body: JSON.stringify({ query }) });
  const { data, errors } = await answer.json() as { errors?: unknown; data: { repository: { url: string; commit: { url: string; oid: string; tree: { url: string; entries: { path: string; url: string }[] }; blob: { url: string } } } } };
  assert.equal(errors, undefined, JSON.stringify(errors));
  const { repository } = data;
  assert.match(await open(repository.url), /README\.md/);
  assert.match(await open(repository.commit.url), /<h2>First router<\/h2>/);
  assert.match(await open(repository.commit.tree.url), />main\.go<\/a>/);
  const blob = await open(repository.commit.blob.url);
  assert.match(blob, /NewRouter/);
  assert.doesNotMatch(blob, /other/, 'v1\'s main.go, not the default branch\'s');
  const docs = repository.commit.tree.entries.find((e) => e.path === 'assets');
  assert.ok(docs);
  assert.match(await open(docs.url), />logo\.bin<\/a>/);
});

test('every source a deep search answer cites opens the file view with its lines selected', async () => {
  const client = new Client({ name: 'web-links-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/.api/mcp/all`), { requestInit: { headers: { Authorization: `token ${fixture.instance.alice}` } } }));
  let text: string;
  try {
    const result = await client.callTool({ name: 'deepsearch', arguments: { question: 'where is NewRouter defined and what does it return?' } });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    text = (result.content as { text: string }[])[0]!.text;
  } finally {
    await client.close();
  }
  const links = [...new Set([...text.matchAll(/\((https?:\/\/[^\s)]+\/-\/blob\/[^\s)]+)\)/g)].map((m) => m[1]!))];
  assert.ok(links.length > 0, text);
  for (const link of links) {
    const range = /\?L(\d+)(?:-(\d+))?$/.exec(link);
    assert.ok(range, link);
    const page = await open(link);
    const selected = [...page.matchAll(/<tr id="L(\d+)" class="sel">/g)].map((m) => Number(m[1]));
    const start = Number(range[1]);
    const end = range[2] === undefined ? start : Number(range[2]);
    assert.deepEqual(selected, Array.from({ length: end - start + 1 }, (_, i) => start + i), link);
  }
});

async function graphql<T>(query: string): Promise<T> {
  const answer = await fetch(`${url}/.api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `token ${fixture.instance.alice}` }, body: JSON.stringify({ query }) });
  const { data, errors } = await answer.json() as { errors?: unknown; data: T };
  assert.equal(errors, undefined, JSON.stringify(errors));
  return data;
}

test('GraphQL url fields of search results, symbols and their locations, commit results and refs open their pages', async () => {
  const repo = `repo:^${HISTORY.replace(/\./g, '\\\\.')}$`;
  const { search: symbols } = await graphql<{ search: { results: { results: { file?: { url: string }; symbols?: { name: string; url: string; location: { url: string } }[] }[] } } }>(
    `{ search(version: V3, patternType: literal, query: "${repo} type:symbol NewRouter") { results { results { ... on FileMatch { file { url } symbols { name url location { url } } } } } } }`);
  const symbol = symbols.results.results.flatMap((r) => r.symbols ?? []).find((s) => s.name === 'NewRouter');
  assert.ok(symbol, JSON.stringify(symbols));
  // The definition's file (router.go), not a file that uses it.
  for (const link of [symbol.url, symbol.location.url]) assert.match(await open(link), /NewRouter makes an empty Router/, link);
  for (const { file } of symbols.results.results) if (file !== undefined) assert.match(await open(file.url), /NewRouter/, file.url);
  const { search: commits } = await graphql<{ search: { results: { results: { url?: string; matches?: { url: string }[] }[] } } }>(
    `{ search(version: V3, patternType: literal, query: "${repo} type:commit second") { results { results { ... on CommitSearchResult { url matches { url } } } } } }`);
  const commitLinks = commits.results.results.flatMap((r) => [r.url ?? '', ...(r.matches ?? []).map((m) => m.url)]).filter((l) => l !== '');
  assert.ok(commitLinks.length > 0, JSON.stringify(commits));
  for (const link of commitLinks) assert.match(await open(link), /Use a second router/, link);
  const { repository } = await graphql<{ repository: { tags: { nodes: { name: string; url: string }[] }; branches: { nodes: { name: string; url: string }[] } } }>(
    `{ repository(name: "${HISTORY}") { tags { nodes { name url } } branches { nodes { name url } } } }`);
  const refs = [...repository.tags.nodes, ...repository.branches.nodes];
  assert.deepEqual(refs.map((r) => r.name).sort(), ['refs/heads/dev', 'refs/heads/main', 'refs/tags/v1', 'refs/tags/v2']);
  for (const ref of refs) assert.match(await open(ref.url), />main\.go<\/a>/, ref.url);
});
