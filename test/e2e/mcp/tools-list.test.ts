/**
 * The tools/list of a real `quarry serve` over loopback HTTP: what it costs an agent (/.api/mcp/all
 * under 4,000 estimated tokens), descriptions whose examples are valid calls and that say nothing
 * twice, and `mcp.tools.disabled` written through GraphQL hiding, refusing and restoring tools.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkArguments, type ObjectSchema } from '../../../src/api/mcp/arguments.js';
import { ENDPOINT_PATHS } from '../../../src/api/mcp/registry.js';
import { fetchToolsList, measureToolsList } from './tools-list-size.js';
import { startQuarry, type QuarryFixture } from './quarry-fixture.js';

/** The goal is 4,000; paging arguments still to come need some of the room left. */
const ALL_ENDPOINT_MAX_TOKENS = 4000;

let quarry: QuarryFixture;

before(async () => {
  quarry = await startQuarry();
});

after(() => quarry.dispose());

async function listedNames(path: string): Promise<string[]> {
  return (await fetchToolsList(quarry.url, path, quarry.adminToken)).tools.map((t) => t.name).sort();
}

async function graphql(query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const response = await fetch(`${quarry.url}/.api/graphql`, { method: 'POST', headers: { Authorization: `token ${quarry.adminToken}` }, body: JSON.stringify({ query, variables }) });
  return response.json();
}

/** Writes the site configuration through GraphQL, as an administrator's script would; the errors, if refused. */
async function setSiteConfig(contents: string): Promise<any[] | undefined> {
  const { data } = await graphql('{ site { configuration { id } } }');
  const answer = await graphql('mutation ($id: Int!, $input: String!) { updateSiteConfiguration(lastID: $id, input: $input) }', { id: data.site.configuration.id, input: contents });
  return answer.errors;
}

async function callTool(path: string, name: string, args: Record<string, unknown>): Promise<any> {
  const response = await fetch(`${quarry.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `token ${quarry.adminToken}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: args } }),
  });
  assert.equal(response.status, 200);
  return response.json();
}

describe('what tools/list costs an agent', () => {
  it(`keeps /.api/mcp/all under ${ALL_ENDPOINT_MAX_TOKENS} estimated tokens, every endpoint included in the count`, async () => {
    const all = await measureToolsList(quarry.url, ENDPOINT_PATHS.all, quarry.adminToken);
    assert.ok(all.tools.length >= 12, `${all.tools.length} tools listed`);
    const widest = [...all.tools].sort((a, b) => b.tokens - a.tokens).slice(0, 3).map((t) => `${t.name} ${t.tokens}`).join(', ');
    assert.ok(all.tokens < ALL_ENDPOINT_MAX_TOKENS, `/.api/mcp/all tools/list is about ${all.tokens} tokens (${all.chars} characters); the largest: ${widest}`);
    const core = await measureToolsList(quarry.url, ENDPOINT_PATHS.core, quarry.adminToken);
    assert.ok(core.tokens < all.tokens);
  });

  it('gives every tool one example that is a valid call of that tool', async () => {
    const { tools } = await fetchToolsList(quarry.url, ENDPOINT_PATHS.all, quarry.adminToken);
    for (const tool of tools) {
      // The evaluator's one argument is a script: its example is Lua, run by the evaluator's own tests.
      if (tool.name === 'evaluator') {
        assert.equal((tool.description ?? '').match(/^Example, [^\n]*:\n/gm)?.length, 1, tool.description);
        continue;
      }
      const examples = (tool.description ?? '').match(/^Example: (\{.*\})$/gm) ?? [];
      assert.equal(examples.length, 1, `${tool.name}: ${tool.description}`);
      const checked = checkArguments(tool.inputSchema as ObjectSchema, JSON.parse(examples[0]!.slice('Example: '.length)));
      assert.ok(checked.ok, `${tool.name}: ${checked.ok ? '' : checked.message}`);
    }
  });

  it('says nothing twice: no sentence in two tool descriptions, no parameter description inside its tool\'s', async () => {
    const { tools } = await fetchToolsList(quarry.url, ENDPOINT_PATHS.all, quarry.adminToken);
    const seen = new Map<string, string>();
    for (const tool of tools) {
      const description = tool.description ?? '';
      for (const sentence of description.split(/(?<=[.:;])\s+|\n/).map((s) => s.trim()).filter((s) => s.length >= 30)) {
        assert.equal(seen.get(sentence), undefined, `"${sentence}" is in both ${seen.get(sentence)} and ${tool.name}`);
        seen.set(sentence, tool.name);
      }
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        assert.ok(!description.includes(property.description ?? '\0'), `${tool.name}.${name}'s description repeats the tool's`);
      }
    }
  });
});

describe('mcp.tools.disabled', () => {
  it('hides and refuses the named tools on every endpoint once written, and restores them once removed', async () => {
    assert.equal(await setSiteConfig('{ "mcp.tools.disabled": ["keyword_search", "go_to_definition"] }'), undefined);
    try {
      assert.ok(!(await listedNames(ENDPOINT_PATHS.core)).includes('keyword_search'));
      const all = await listedNames(ENDPOINT_PATHS.all);
      assert.ok(!all.includes('keyword_search') && !all.includes('go_to_definition') && all.includes('read_file'), all.join(', '));
      const refused = await callTool(ENDPOINT_PATHS.core, 'keyword_search', { query: 'Hello' });
      assert.equal(refused.error.code, -32602);
      assert.match(refused.error.message, /^MCP error -32602: Tool keyword_search is disabled on this instance \(site setting mcp\.tools\.disabled\)\. Tools on this endpoint: (?!.*keyword_search).*read_file/);
    } finally {
      assert.equal(await setSiteConfig('{}'), undefined);
    }
    assert.ok((await listedNames(ENDPOINT_PATHS.all)).includes('go_to_definition'));
    const answer = await callTool(ENDPOINT_PATHS.core, 'keyword_search', { query: 'Hello' });
    assert.match(answer.result.content[0].text, /greet\/hello\.go/);
  });

  it('refuses a configuration naming a tool that does not exist, and keeps the one in force', async () => {
    const before = await listedNames(ENDPOINT_PATHS.all);
    const errors = await setSiteConfig('{ "mcp.tools.disabled": ["read_file", "keyword-search"] }');
    assert.equal(errors?.[0]?.extensions?.code, 'CONFIG_INVALID');
    assert.match(errors?.[0]?.message ?? '', /"mcp\.tools\.disabled" names an unknown tool "keyword-search"; the tools are .*keyword_search/);
    assert.deepEqual(await listedNames(ENDPOINT_PATHS.all), before);
  });
});
