/**
 * The GraphQL documents of the matrix's read paths. The repository name and search query travel as
 * variables, so a hidden and a missing name produce documents of the same shape and positions.
 */

const REPOSITORY = 'id name uri description url externalURLs { url serviceType } label { text html } isFork isArchived isPrivate';
const RANGE = 'start { line character } end { line character }';
const HIGHLIGHTS = 'highlights { line character length }';

// A match's file is selected without its content: GraphQL reads each blob through git, which for
// dozens of matches costs seconds; GitBlob.content has its own path (BLOB).
const FILE_MATCH = `... on FileMatch {
  repository { id name } file { path name url isDirectory commit { oid } } limitHit
  lineMatches { preview lineNumber offsetAndLengths limitHit }
  symbols { name containerName kind language url canonicalURL fileLocal location { url canonicalURL resource { path } range { ${RANGE} } } }
}`;

const COMMIT_RESULT = `... on CommitSearchResult {
  url label { text html } detail { text } matches { url body { text } ${HIGHLIGHTS} }
  commit { oid repository { name } } refs { name } sourceRefs { name }
  messagePreview { value ${HIGHLIGHTS} } diffPreview { value ${HIGHLIGHTS} }
}`;

export const SEARCH = `query($q: String!) { search(query: $q, version: V3) { results {
  results { __typename ${FILE_MATCH} ${COMMIT_RESULT} ... on Repository { id name } }
  matchCount resultCount approximateResultCount limitHit repositoriesCount indexUnavailable elapsedMilliseconds
  cloning { name } missing { name } timedout { name }
  dynamicFilters { value label count limitHit kind }
  alert { title description kind proposedQueries { description query } }
} } }`;

const inRepository = (selection: string): string => `query($repo: String) { repository(name: $repo) { ${selection} } }`;

export const REPOSITORY_BY_NAME = inRepository(REPOSITORY);

export const REFS = inRepository(`
  defaultBranch { name abbrevName displayName prefix type url repository { name } target { oid abbreviatedOID commit { oid } } }
  branches(first: 10) { totalCount pageInfo { endCursor hasNextPage } nodes { name target { oid } } }
  tags { totalCount nodes { name target { oid } } }`);

export const COMMIT_AT_HEAD = inRepository('commit(rev: "HEAD") { oid abbreviatedOID subject body message url author { date person { name email displayName } } repository { name } }');

export const COMMIT_AT_TAG = inRepository('commit(rev: "v1") { oid subject }');

export const BLOB = inRepository('commit(rev: "HEAD") { blob(path: "plan.ts") { path name url content byteSize binary isDirectory commit { oid } repository { name } } }');

export const TREE = inRepository('commit(rev: "feature") { tree(path: "") { path name isRoot isDirectory url commit { oid } repository { name } entries(recursive: true) { path name isDirectory url } } }');

export const COMPARISON = inRepository(`comparison(base: "v1", head: "main") {
  baseRepository { name } headRepository { name }
  fileDiffs { totalCount pageInfo { endCursor hasNextPage } diffStat { added deleted } rawDiff
    nodes { oldPath newPath internalID stat { added deleted } hunks { oldRange { startLine lines } newRange { startLine lines } oldNoNewlineAt section body } } }
}`);

export const CONTRIBUTORS = inRepository('contributors { totalCount pageInfo { hasNextPage } nodes { person { name email displayName } count repository { name } } }');

export const ANCESTORS = inRepository('commit(rev: "HEAD") { ancestors(first: 10) { totalCount pageInfo { endCursor hasNextPage } nodes { oid subject } } }');

export const TEXT_SEARCH_INDEX = inRepository(`textSearchIndex {
  repository { name }
  status { updatedAt contentByteSize contentFilesCount indexShardsCount commit }
  phases { name state done total rate etaSeconds }
}`);

export const NODE = 'query($id: ID!) { node(id: $id) { __typename id ... on Repository { name } } }';

const CONNECTION = 'totalCount pageInfo { endCursor hasNextPage } nodes { id name }';

export const REPOSITORIES_NAMED = `query($repo: String!) { repositories(names: [$repo]) { ${CONNECTION} } }`;
export const REPOSITORIES_MATCHING = `query($repo: String!) { repositories(query: $repo) { ${CONNECTION} } }`;
export const REPOSITORIES = `{ repositories { ${CONNECTION} } }`;
export const REPOSITORIES_FIRST_PAGE = `{ repositories(first: 1) { ${CONNECTION} } }`;
export const REPOSITORIES_LIKE_EXAMPLE = `{ repositories(query: "example") { ${CONNECTION} } }`;

/** Field names a document selects: words outside string literals and variables. */
export function selectedNames(document: string): Set<string> {
  return new Set(document.replace(/"[^"]*"/g, '').replace(/\$\w+/g, '').match(/[_A-Za-z]\w*/g) ?? []);
}
