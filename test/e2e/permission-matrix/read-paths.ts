/**
 * Every read path of the matrix, one row each: the door, whether it names one repository (run for
 * the hidden and the missing one), reads the whole site (compared with the reference server) or
 * holds no repository data at all, and what a reader must find there. Adding a path is one line.
 */
import type { Answer, Door } from './doors.js';
import * as gql from './graphql-documents.js';
import { OPEN, SECRET } from './world.js';

export type DoorName = 'graphql' | 'stream' | 'mcp' | 'metrics' | 'page';

/**
 * repository: run with the hidden name and the missing one; site: one answer over everything the
 * principal may read; global: no repository data whoever asks.
 */
export type Scope = 'repository' | 'site' | 'global';

export interface ReadPath {
  readonly name: string;
  readonly door: DoorName;
  readonly scope: Scope;
  /** What a principal who may read the restricted repository finds in its answer. */
  readonly reveals: RegExp;
  /** global paths: the status each kind of principal gets. */
  readonly status?: (who: { readonly anonymous: boolean; readonly admin: boolean }) => number;
  /** graphql paths: the document, for the coverage check. */
  readonly document?: string;
  /** MCP paths: the tool, for the coverage check. */
  readonly tool?: string;
  /** `repo` is the hidden or the missing repository's name for repository paths, unused otherwise. */
  run(door: Door, repo: string): Promise<Answer>;
}

const SECRET_NAME = /example\\*\.com\/secret/;
const rx = (repo: string): string => repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function graphql(name: string, scope: Scope, document: string, reveals: RegExp, variables: (door: Door, repo: string) => Record<string, unknown> = (_door, repo) => ({ repo })): ReadPath {
  return { name: `graphql ${name}`, door: 'graphql', scope, reveals, document, run: (door, repo) => door.graphql(document, variables(door, repo)) };
}

/** One search, through GraphQL `search` and through the stream API. */
function search(name: string, scope: Scope, query: (repo: string) => string, reveals: RegExp): ReadPath[] {
  return [
    { name: `graphql search ${name}`, door: 'graphql', scope, reveals, document: gql.SEARCH, run: (door, repo) => door.graphql(gql.SEARCH, { q: query(repo) }) },
    { name: `stream ${name}`, door: 'stream', scope, reveals, run: (door, repo) => door.stream(query(repo)) },
  ];
}

function mcp(name: string, scope: Scope, tool: string, args: (repo: string) => Record<string, unknown>, reveals: RegExp): ReadPath {
  return { name: `mcp ${tool} ${name}`.trim(), door: 'mcp', scope, reveals, tool, run: (door, repo) => door.mcp(tool, args(repo)) };
}

/** An evaluator script through one module; `script` gets the repository's name (Lua long strings need no escapes). */
function evaluator(module: string, scope: Scope, script: (repo: string) => string, reveals: RegExp): ReadPath {
  return mcp(module, scope, 'evaluator', (repo) => ({ script: script(repo) }), reveals);
}

/** A deep search answer names a fresh conversation (link, id) and its timing: blanked, so answers compare. */
function blankConversation(answer: Answer): Answer {
  const text = answer.text.replace(/\/deepsearch\/[0-9a-f-]{36}/g, '/deepsearch/<token>').replace(/Conversation \d+:/g, 'Conversation <id>:').replace(/, [\d.]+ s\._/g, ', <time>._');
  return { ...answer, text };
}

const DEEP_QUESTION = 'where is a route path normalized?';

/** deepsearch asks; deepsearch_read asks, then reads the conversation back by its link. */
function deepSearch(tool: 'deepsearch' | 'deepsearch_read'): ReadPath {
  return {
    name: `mcp ${tool} unscoped`, door: 'mcp', scope: 'site', reveals: SECRET_NAME, tool,
    async run(door) {
      const asked = await door.mcp('deepsearch', { question: DEEP_QUESTION });
      // The door writes the origin as <origin>: the read token names the conversation alone.
      const link = /Conversation: \S*?\/deepsearch\/([0-9a-f-]{36})/.exec(asked.text)?.[1];
      if (tool === 'deepsearch' || link === undefined) return blankConversation(asked);
      return blankConversation(await door.mcp('deepsearch_read', { identifier: link }));
    },
  };
}

/** The web app's repository pages, read with the principal's token as a browser's session would read them. */
function webPages(): ReadPath[] {
  const page = (view: string, reveals: RegExp): ReadPath => ({
    name: `page /-/${view}`, door: 'page', scope: 'repository', reveals, run: (door, repo) => door.get(`/${repo}/-/${view}`),
  });
  return [
    { name: 'page repository root', door: 'page', scope: 'repository', reveals: /plan\.ts/, run: (door, repo) => door.get(`/${repo}`) },
    page('blob/plan.ts', /classified plan, revised/),
    { name: 'page blob at a tag', door: 'page', scope: 'repository', reveals: /classified plan</, run: (door, repo) => door.get(`/${repo}@v1/-/blob/plan.ts`) },
    page('raw/plan.ts', /classified plan, revised/),
    page('commits', /Widen the classified plan/),
    page('commit/HEAD', /Schedule the launch/),
    page('compare/v1...HEAD', /revised/),
    page('branches', /feature/),
    page('contributors', /Quarry Test/),
    page('references/plan.ts?line=2&character=17', /normalize/),
  ];
}

export const READ_PATHS: readonly ReadPath[] = [
  graphql('repository(name:)', 'repository', gql.REPOSITORY_BY_NAME, SECRET_NAME),
  graphql('repository defaultBranch/branches/tags', 'repository', gql.REFS, /refs\/tags\/v1/),
  graphql('repository.commit(HEAD)', 'repository', gql.COMMIT_AT_HEAD, /Schedule the launch/),
  graphql('repository.commit(tag)', 'repository', gql.COMMIT_AT_TAG, /Draft the classified plan/),
  graphql('commit.blob content', 'repository', gql.BLOB, /classified plan, revised/),
  graphql('commit.tree entries on a branch', 'repository', gql.TREE, /abort\.ts/),
  graphql('repository.comparison fileDiffs', 'repository', gql.COMPARISON, /revised/),
  graphql('repository.contributors', 'repository', gql.CONTRIBUTORS, /Quarry Test/),
  graphql('commit.ancestors', 'repository', gql.ANCESTORS, /Widen the classified plan/),
  graphql('repository.textSearchIndex (index phases)', 'repository', gql.TEXT_SEARCH_INDEX, /"contentFilesCount":\d+/),
  graphql('node(id:) of the repository id', 'repository', gql.NODE, /"Repository"/, (door, repo) => ({ id: door.idOf(repo) })),
  graphql('repositories(names:)', 'repository', gql.REPOSITORIES_NAMED, SECRET_NAME),
  graphql('repositories(query:)', 'repository', gql.REPOSITORIES_MATCHING, SECRET_NAME),
  graphql('repositories totalCount', 'site', gql.REPOSITORIES, SECRET_NAME),
  graphql('repositories(first: 1) pageInfo', 'site', gql.REPOSITORIES_FIRST_PAGE, /"hasNextPage":true/),
  graphql('repositories(query: "example")', 'site', gql.REPOSITORIES_LIKE_EXAMPLE, SECRET_NAME),

  ...search('content repo:^name$', 'repository', (repo) => `classified repo:^${rx(repo)}$`, /classified/),
  { name: 'stream content repo:^name$ with chunk matches', door: 'stream', scope: 'repository', reveals: /"chunkMatches"/, run: (door, repo) => door.stream(`classified repo:^${rx(repo)}$`, { cm: '1', 'max-line-len': '12' }) },
  ...search('type:commit repo:^name$', 'repository', (repo) => `type:commit plan repo:^${rx(repo)}$`, /Draft the classified plan/),
  ...search('type:diff repo:^name$', 'repository', (repo) => `type:diff classified repo:^${rx(repo)}$`, /revised/),
  ...search('type:symbol repo:^name$', 'repository', (repo) => `type:symbol normalize repo:^${rx(repo)}$`, /normalize/),
  ...search('select:repo repo:^name$', 'repository', (repo) => `select:repo classified repo:^${rx(repo)}$`, SECRET_NAME),
  ...search('type:repo repo:^name$', 'repository', (repo) => `type:repo repo:^${rx(repo)}$`, SECRET_NAME),
  ...search('type:path repo:^name$', 'repository', (repo) => `type:path plan repo:^${rx(repo)}$`, /plan\.ts/),
  ...search('repo:^name$@v1 (unindexed revision)', 'repository', (repo) => `classified repo:^${rx(repo)}$@v1`, /classified plan"/),
  ...search('repo:^name$@ a revision that does not exist', 'repository', (repo) => `classified repo:^${rx(repo)}$@no-such-branch`, /no-such-branch/),
  ...search('repo:^name$ rev:feature', 'repository', (repo) => `abort repo:^${rx(repo)}$ rev:feature`, /abort switch/),
  ...search('count:all repo:name (unanchored)', 'repository', (repo) => `classified count:all repo:${repo}`, /Note 39/),

  ...search('unscoped content count:all', 'site', () => 'route count:all', SECRET_NAME),
  ...search('unscoped term only the hidden repository holds', 'site', () => 'classified', SECRET_NAME),
  ...search('unscoped type:commit', 'site', () => 'type:commit the', SECRET_NAME),
  ...search('unscoped type:diff', 'site', () => 'type:diff route', SECRET_NAME),
  ...search('unscoped type:symbol', 'site', () => 'type:symbol /^(route|home|normalize|launch)$/', SECRET_NAME),
  ...search('unscoped type:repo', 'site', () => 'type:repo example', SECRET_NAME),
  ...search('unscoped select:repo', 'site', () => 'select:repo route', SECRET_NAME),
  ...search('unscoped select:symbol', 'site', () => 'select:symbol.function /route|normalize/', SECRET_NAME),
  ...search('repo:secret filter', 'site', () => 'route repo:secret', SECRET_NAME),
  ...search('unscoped type:path', 'site', () => 'type:path ts', SECRET_NAME),
  ...search('unscoped lang:typescript', 'site', () => 'lang:typescript route', SECRET_NAME),

  ...webPages(),

  mcp('', 'repository', 'read_file', (repo) => ({ repo, path: 'plan.ts' }), /classified plan, revised/),
  mcp('at a tag', 'repository', 'read_file', (repo) => ({ repo, path: 'plan.ts', revision: 'v1' }), /classified plan\\n/),
  mcp('at a revision that does not exist', 'repository', 'read_file', (repo) => ({ repo, path: 'plan.ts', revision: 'no-such-branch' }), /Revision not found/),
  mcp('', 'repository', 'list_files', (repo) => ({ repo }), /plan\.ts/),
  mcp('on a branch', 'repository', 'list_files', (repo) => ({ repo, revision: 'feature' }), /abort\.ts/),
  mcp('', 'repository', 'list_refs', (repo) => ({ repo }), /tag v1 /),
  mcp('', 'repository', 'compare_revisions', (repo) => ({ repo, base: 'v1', head: 'main' }), /revised/),
  mcp('from a revision that does not exist', 'repository', 'compare_revisions', (repo) => ({ repo, base: 'no-such-branch', head: 'main' }), /no-such-branch/),
  mcp('', 'repository', 'find_references', (repo) => ({ repo, path: 'plan.ts', symbol: 'normalize' }), /normalize/),
  mcp('', 'repository', 'go_to_definition', (repo) => ({ repo, path: 'plan.ts', symbol: 'normalize' }), /toLowerCase/),
  mcp('', 'repository', 'commit_search', (repo) => ({ repos: [repo], messageTerms: ['plan'] }), /Draft the classified plan/),
  mcp('', 'repository', 'diff_search', (repo) => ({ repos: [repo], pattern: 'classified' }), /revised/),
  mcp('repo:^name$', 'repository', 'keyword_search', (repo) => ({ query: `classified repo:^${rx(repo)}$` }), /classified/),
  mcp('repo:^name$', 'repository', 'nls_search', (repo) => ({ query: `repo:^${rx(repo)}$ classified plan` }), /classified/),
  mcp('by name', 'repository', 'list_repos', (repo) => ({ query: repo }), SECRET_NAME),
  evaluator('search.keyword', 'repository', (repo) => `for _, h in ipairs(search.keyword([[classified repo:^${rx(repo)}$]])) do print(h.repo, h.path, h.text) end`, /classified/),
  evaluator('search.nls', 'repository', (repo) => `for _, h in ipairs(search.nls([[repo:^${rx(repo)}$ classified plan]])) do print(h.path, h.text) end`, /classified/),
  evaluator('search.symbols', 'repository', (repo) => `for _, s in ipairs(search.symbols([[normalize repo:^${rx(repo)}$]])) do print(s.path, s.name) end`, /normalize/),
  evaluator('search.commits', 'repository', (repo) => `for _, c in ipairs(search.commits{repos = {[[${repo}]]}, messageTerms = {"plan"}}) do print(c.subject) end`, /Draft the classified plan/),
  evaluator('search.diffs', 'repository', (repo) => `for _, d in ipairs(search.diffs{repos = {[[${repo}]]}, pattern = "classified"}) do print(d.text) end`, /revised/),
  evaluator('source.read', 'repository', (repo) => `print(source.read([[${repo}]], "plan.ts"))`, /classified plan, revised/),
  evaluator('source.list', 'repository', (repo) => `for _, e in ipairs(source.list([[${repo}]], {revision = "feature"})) do print(e.path) end`, /abort\.ts/),
  evaluator('nav.definition', 'repository', (repo) => `print(nav.definition{repo = [[${repo}]], path = "plan.ts", symbol = "normalize"}.text)`, /toLowerCase/),
  evaluator('nav.references', 'repository', (repo) => `for _, r in ipairs(nav.references{repo = [[${repo}]], path = "plan.ts", symbol = "normalize"}) do print(r.path, r.text) end`, /normalize/),

  mcp('unscoped', 'site', 'list_repos', () => ({ query: 'example' }), SECRET_NAME),
  mcp('unscoped', 'site', 'keyword_search', () => ({ query: 'route' }), SECRET_NAME),
  mcp('unscoped', 'site', 'nls_search', () => ({ query: 'route normalize path' }), SECRET_NAME),
  mcp('unscoped ranking', 'site', 'nls_search', () => ({ query: 'cache limits' }), SECRET_NAME),
  mcp('paged', 'site', 'list_repos', () => ({ query: 'example', limit: 1 }), /Showing 1-1 of 2 repositories/),
  mcp('', 'site', 'get_contributor_repos', () => ({ authors: ['Quarry Test'] }), SECRET_NAME),
  deepSearch('deepsearch'),
  deepSearch('deepsearch_read'),
  mcp('from the open repository', 'site', 'find_references', () => ({ repo: OPEN, path: 'src/router.ts', symbol: 'route' }), SECRET_NAME),
  mcp('from the open repository', 'site', 'go_to_definition', () => ({ repo: OPEN, path: 'src/router.ts', symbol: 'normalize' }), SECRET_NAME),
  mcp('over both repositories', 'site', 'commit_search', () => ({ repos: [OPEN, SECRET], messageTerms: ['the'] }), SECRET_NAME),
  mcp('over both repositories', 'site', 'diff_search', () => ({ repos: [OPEN, SECRET], pattern: 'route' }), SECRET_NAME),
  evaluator('unscoped search.keyword', 'site', () => 'for _, h in ipairs(search.keyword("route count:all")) do print(h.repo, h.path) end', SECRET_NAME),
  evaluator('unscoped search.nls', 'site', () => 'for _, h in ipairs(search.nls("route normalize path")) do print(h.repo, h.path) end', SECRET_NAME),
  evaluator('unscoped search.symbols', 'site', () => 'for _, s in ipairs(search.symbols("/^(route|home|normalize|launch)$/")) do print(s.repo, s.name) end', SECRET_NAME),
  evaluator('nav.references from the open repository', 'site', () => `for _, r in ipairs(nav.references{repo = "${OPEN}", path = "src/router.ts", symbol = "route"}) do print(r.repo, r.path) end`, SECRET_NAME),
  evaluator('search.commits over both repositories', 'site', () => `for _, c in ipairs(search.commits{repos = {"${OPEN}", "${SECRET}"}, messageTerms = {"the"}}) do print(c.repo) end`, SECRET_NAME),

  {
    name: '/metrics', door: 'metrics', scope: 'global', reveals: /quarry_http_requests_total/,
    status: (who) => (who.admin ? 200 : who.anonymous ? 401 : 403),
    // Requests that name the hidden repository first, so a raw path or name in a label would show.
    run: (door) => door.get('/metrics', [`/${SECRET}/-/blob/plan.ts`, `/.api/mcp/${SECRET}`]),
  },
  { name: '/healthz', door: 'page', scope: 'global', reveals: /^ok/, status: () => 200, run: (door) => door.get('/healthz') },
  { name: 'debug console page', door: 'page', scope: 'global', reveals: /<html/i, status: () => 200, run: (door) => door.get('/debug/console') },
];
