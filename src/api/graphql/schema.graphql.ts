/**
 * The GraphQL schema as SDL: the Sourcegraph-compatible subset of reference §3.3 that Quarry
 * serves. Types and field names follow Sourcegraph so `src` and existing scripts work unchanged.
 */

export const SCHEMA_SDL = /* GraphQL */ `
schema { query: Query mutation: Mutation }

interface Node { id: ID! }
scalar DateTime
scalar BigInt
scalar JSONCString
scalar GitObjectID

enum SearchVersion { V1 V2 V3 }
enum SearchPatternType { standard literal regexp keyword }

type Query {
  "Site admins only."
  oauthApplications: [OAuthApplication!]!
  node(id: ID!): Node
  currentUser: User
  user(username: String): User
  users(first: Int, after: String, query: String): UserConnection!
  search(version: SearchVersion = V1, patternType: SearchPatternType, query: String = ""): Search
  repository(name: String): Repository
  repositories(first: Int, after: String, query: String, names: [String!]): NewRepositoryConnection!
  roles(first: Int): RoleConnection!
  site: Site!
}

type Search { results: SearchResults! }
union SearchResult = FileMatch | CommitSearchResult | Repository
type SearchResults {
  results: [SearchResult!]!
  matchCount: Int!
  resultCount: Int! @deprecated(reason: "renamed to matchCount for less ambiguity")
  approximateResultCount: String!
  limitHit: Boolean!
  repositoriesCount: Int!
  cloning: [Repository!]!
  missing: [Repository!]!
  timedout: [Repository!]!
  indexUnavailable: Boolean!
  alert: SearchAlert
  elapsedMilliseconds: Int!
  dynamicFilters: [SearchFilter!]!
}
type SearchFilter { value: String! label: String! count: Int! limitHit: Boolean! kind: String! }
type SearchAlert { title: String! description: String kind: String proposedQueries: [SearchQueryDescription!] }
type SearchQueryDescription { description: String query: String! }

type FileMatch {
  file: GitBlob!
  repository: Repository!
  symbols: [Symbol!]!
  lineMatches: [LineMatch!]!
  limitHit: Boolean!
}
enum SymbolKind {
  UNKNOWN FILE MODULE NAMESPACE PACKAGE CLASS METHOD PROPERTY FIELD CONSTRUCTOR ENUM INTERFACE FUNCTION
  VARIABLE CONSTANT STRING NUMBER BOOLEAN ARRAY OBJECT KEY NULL ENUMMEMBER STRUCT EVENT OPERATOR TYPEPARAMETER
}
"""A symbol definition; fileLocal is true when it is not visible outside its file."""
type Symbol {
  name: String! containerName: String kind: SymbolKind! language: String!
  location: Location! url: String! canonicalURL: String! fileLocal: Boolean!
}
type Location { resource: GitBlob! range: Range url: String! canonicalURL: String! }
type Range { start: Position! end: Position! }
type Position { line: Int! character: Int! }
type LineMatch {
  preview: String!
  lineNumber: Int!
  offsetAndLengths: [[Int!]!]!
  limitHit: Boolean! @deprecated(reason: "will always be false")
}

type Markdown { text: String! html: String! }
type Highlight { line: Int! character: Int! length: Int! }
type HighlightedString { value: String! highlights: [Highlight!]! }
type SearchResultMatch { url: String! body: Markdown! highlights: [Highlight!]! }
type CommitSearchResult {
  label: Markdown! url: String! detail: Markdown! matches: [SearchResultMatch!]!
  commit: GitCommit! refs: [GitRef!]! sourceRefs: [GitRef!]!
  messagePreview: HighlightedString diffPreview: HighlightedString
}

type ExternalLink { url: String! serviceType: String }
type Repository implements Node {
  id: ID!
  name: String!
  uri: String! @deprecated(reason: "Use name.")
  description: String!
  url: String!
  externalURLs: [ExternalLink!]!
  label: Markdown!
  isFork: Boolean!
  isArchived: Boolean!
  isPrivate: Boolean!
  defaultBranch: GitRef
  branches(first: Int): GitRefConnection!
  tags(first: Int): GitRefConnection!
  commit(rev: String!): GitCommit
  comparison(base: String, head: String): RepositoryComparison!
  contributors(revisionRange: String, afterDate: String, path: String, first: Int, after: String): RepositoryContributorConnection!
  textSearchIndex: RepositoryTextSearchIndex
}
type RepositoryTextSearchIndex { repository: Repository! status: RepositoryTextSearchIndexStatus phases: [RepositoryIndexPhase!]! }
type RepositoryTextSearchIndexStatus { updatedAt: DateTime! contentByteSize: BigInt! contentFilesCount: Int! indexShardsCount: Int! commit: GitObjectID! }
enum RepositoryIndexPhaseName { TEXT SYMBOLS HISTORY }
enum RepositoryIndexPhaseState { COMPLETE INDEXING PENDING DISABLED }
type RepositoryIndexPhase { name: RepositoryIndexPhaseName! state: RepositoryIndexPhaseState! done: Int! total: Int rate: Float! etaSeconds: Float }
type RepositoryContributorConnection { nodes: [RepositoryContributor!]! totalCount: Int! pageInfo: PageInfo! }
type RepositoryContributor { person: Person! count: Int! repository: Repository! }
type NewRepositoryConnection { nodes: [Repository!]! totalCount: Int! pageInfo: PageInfo! }
type PageInfo { endCursor: String hasNextPage: Boolean! }

enum GitRefType { GIT_BRANCH GIT_TAG GIT_REF_OTHER }
type GitRef {
  name: String! abbrevName: String! displayName: String! prefix: String!
  type: GitRefType! target: GitObject! repository: Repository! url: String!
}
type GitRefConnection { nodes: [GitRef!]! totalCount: Int! pageInfo: PageInfo! }
type GitObject { oid: GitObjectID! abbreviatedOID: String! commit: GitCommit }

type GitCommit {
  repository: Repository!
  oid: GitObjectID!
  abbreviatedOID: String!
  author: Signature!
  message: String!
  subject: String!
  body: String
  url: String!
  blob(path: String!): GitBlob
  tree(path: String = ""): GitTree
  ancestors(first: Int, path: String, afterCursor: String): GitCommitConnection!
}
type GitCommitConnection { nodes: [GitCommit!]! totalCount: Int pageInfo: PageInfo! }

"""What head changes over the merge base of base and head (git diff base...head); base and head default to HEAD."""
type RepositoryComparison {
  baseRepository: Repository!
  headRepository: Repository!
  fileDiffs(first: Int, after: String): FileDiffConnection!
}
type FileDiffConnection { nodes: [FileDiff!]! totalCount: Int pageInfo: PageInfo! diffStat: DiffStat! rawDiff: String! }
type FileDiff { oldPath: String newPath: String hunks: [FileDiffHunk!]! stat: DiffStat! internalID: String! }
type FileDiffHunk { oldRange: FileDiffHunkRange! oldNoNewlineAt: Boolean! newRange: FileDiffHunkRange! section: String body: String! }
type FileDiffHunkRange { startLine: Int! lines: Int! }
type DiffStat { added: Int! deleted: Int! }
type Signature { person: Person! date: String! }
type Person { name: String! email: String! displayName: String! }

type GitTree {
  path: String! name: String! isRoot: Boolean! isDirectory: Boolean! url: String!
  commit: GitCommit! repository: Repository!
  entries(first: Int, recursive: Boolean = false): [TreeEntry!]!
}
type TreeEntry { path: String! name: String! isDirectory: Boolean! url: String! }
type GitBlob {
  path: String! name: String! isDirectory: Boolean! url: String!
  content: String! byteSize: Int! binary: Boolean!
  commit: GitCommit! repository: Repository!
}

type User implements Node {
  id: ID!
  username: String!
  email: String! @deprecated(reason: "use emails instead")
  displayName: String
  url: String!
  createdAt: DateTime!
  siteAdmin: Boolean!
  databaseID: Int!
  accessTokens(first: Int): AccessTokenConnection!
  roles(first: Int): RoleConnection!
  permissions: [String!]!
}
type UserConnection { nodes: [User!]! totalCount: Int! pageInfo: PageInfo! }
type AccessToken implements Node { id: ID! scopes: [String!]! note: String! createdAt: DateTime! lastUsedAt: DateTime }
type AccessTokenConnection { nodes: [AccessToken!]! totalCount: Int! pageInfo: PageInfo! }
type Role implements Node { id: ID! name: String! system: Boolean! permissions: [String!]! }
type RoleConnection { nodes: [Role!]! totalCount: Int! pageInfo: PageInfo! }

type Site {
  siteID: String!
  buildVersion: String!
  productVersion: String!
  configuration: SiteConfiguration!
}
type SiteConfiguration { id: Int! effectiveContents: JSONCString! validationMessages: [String!]! }

type CreateUserResult { user: User! resetPasswordURL: String }
type CreateAccessTokenResult { id: ID! token: String! }
type EmptyResponse { alwaysNil: String }

"An OAuth application (client) of Quarry's authorization server; the secret is never readable."
type OAuthApplication {
  clientID: String!
  name: String!
  redirectURIs: [String!]!
  scopes: [String!]!
  confidential: Boolean!
  "Registered itself through RFC 7591 rather than made by a site admin."
  dynamic: Boolean!
  createdAt: String!
}
"clientSecret is returned once, for confidential applications; null for public ones."
type CreateOAuthApplicationResult { application: OAuthApplication! clientSecret: String }

"""
Role mutations are Quarry's small set (site admins only): create and delete custom roles, and
assign or remove a role for one user. System roles (USER, SITE_ADMINISTRATOR) cannot be changed.
"""
type Mutation {
  createUser(username: String!, email: String): CreateUserResult!
  deleteUser(user: ID!, hard: Boolean): EmptyResponse
  setUserIsSiteAdmin(userID: ID!, siteAdmin: Boolean!): EmptyResponse
  createAccessToken(user: ID!, scopes: [String!]!, note: String!): CreateAccessTokenResult!
  deleteAccessToken(byID: ID, byToken: String): EmptyResponse!
  updateSiteConfiguration(lastID: Int!, input: String!): Boolean!
  createRole(name: String!, permissions: [String!]!): Role!
  deleteRole(role: ID!): EmptyResponse
  assignRoleToUser(user: ID!, role: ID!): EmptyResponse
  removeRoleFromUser(user: ID!, role: ID!): EmptyResponse
  "Site admins only: scopes are user:all and/or mcp; no redirect URI means the device flow only."
  createOAuthApplication(name: String!, redirectURIs: [String!]!, scopes: [String!]!, confidential: Boolean!): CreateOAuthApplicationResult!
  "Site admins only: deletes the application with its grants; its tokens stop working."
  deleteOAuthApplication(clientID: String!): EmptyResponse
}
`;
