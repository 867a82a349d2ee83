/**
 * The size of each MCP endpoint's tools/list answer, what an agent reads before its first question:
 * per tool (description, input schema) and whole, from a real `quarry serve` over loopback HTTP,
 * in characters and estimated tokens (4 characters each). Goal: /.api/mcp/all under 4,000 tokens.
 * Run: `node dist/bench/tools-list-size.js`.
 */
import { ENDPOINT_PATHS } from '../src/api/mcp/registry.js';
import { startServerProcess } from '../test/e2e/server-process.js';
import { measureToolsList, type ListingSize } from '../test/e2e/mcp/tools-list-size.js';
import { makeTempDir, removeDir } from '../test/git/fixtures.js';
import { REPO_ROOT } from './paths.js';
import { writeSideRun } from './record.js';
import { collect, firstLine } from './tools/process.js';

const ALL_ENDPOINT_GOAL_TOKENS = 4000;

function table(listing: ListingSize): string[] {
  return [
    `## \`${listing.path}\`: ${listing.tools.length} tools, ${listing.chars} characters, about ${listing.tokens} tokens`,
    '',
    '| tool | characters | description | input schema | of which parameter descriptions | tokens |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...listing.tools.map((t) => `| ${t.name} | ${t.chars} | ${t.descriptionChars} | ${t.schemaChars} | ${t.parameterDescriptionChars} | ${t.tokens} |`),
    '',
  ];
}

async function main(): Promise<void> {
  const data = makeTempDir('quarry-tools-list-bench');
  const server = await startServerProcess(data);
  try {
    const listings: ListingSize[] = [];
    for (const path of Object.values(ENDPOINT_PATHS)) listings.push(await measureToolsList(server.url, path, server.adminToken!));
    const all = listings.find((l) => l.path === ENDPOINT_PATHS.all)!;
    const verdict = all.tokens < ALL_ENDPOINT_GOAL_TOKENS ? 'pass' : 'FAIL';
    const commit = await firstLine('git', ['-C', REPO_ROOT, 'rev-parse', 'HEAD']);
    const dirty = (await collect('git', ['--no-optional-locks', '-C', REPO_ROOT, 'status', '--porcelain', '--', 'src'])).stdout.toString('utf8').trim() !== '';
    const summary = [
      '# MCP tools/list size: the answer to one stateless tools/list request, over loopback HTTP',
      '',
      `Quarry ${commit}${dirty ? ' (with uncommitted changes to src/)' : ''}. Tokens estimated at 4 characters each; a tool's characters are its entry as JSON, the total is the whole response body.`,
      '',
      `| endpoint | tools | characters | tokens |`,
      '| --- | ---: | ---: | ---: |',
      ...listings.map((l) => `| \`${l.path}\` | ${l.tools.length} | ${l.chars} | ${l.tokens}${l === all ? ` (goal < ${ALL_ENDPOINT_GOAL_TOKENS}: ${verdict})` : ''} |`),
      '',
      ...listings.filter((l) => l.tools.length > 0).flatMap(table),
    ].join('\n');
    process.stdout.write(summary);
    await writeSideRun('tools-list', summary, { commit, dirty, goalTokens: ALL_ENDPOINT_GOAL_TOKENS, listings });
  } finally {
    if (server.child.exitCode === null) await server.stop();
    removeDir(data);
  }
}

await main();
