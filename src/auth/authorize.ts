/**
 * Who may use which door, every rule in one table: private mode (site setting `auth.public`), the
 * doors that need credentials, the token scopes each takes, site-admin-only doors, role
 * permissions, the metrics scrape token, token-sudo and each door's OAuth resource. The edge and
 * the doors ask here and decide nothing themselves. Pure: reads no store, answers no request.
 */
import type { AuthFailure, Authentication, Identity, Principal } from './principal.js';

export const PRIVATE_MODE = 'Private mode requires authentication.';
export const INVALID_TOKEN = 'Invalid access token.';
export const METRICS_NEED_ADMIN = 'must be site admin';
export const METRICS_NEED_CREDENTIALS = 'Metrics need a site admin access token or the metrics scrape token.';
export const SUDO_SUBJECT_NOT_ADMIN = 'The subject user of a sudo access token must be a site admin.';
export const MCP_NEEDS_TOKEN = 'Authorization required: send an access token with the mcp or user:all scope.';
export const MCP_SCOPE_MISSING = 'This access token lacks the mcp scope.';
export const WRONG_AUDIENCE = 'This token was issued for another resource.';
export const DEEPSEARCH_NEEDS_TOKEN = 'Deep search conversations belong to users: send an access token with the user:all scope.';
const MCP_ACCESS = 'MCP#ACCESS';

const USER_ALL = 'user:all';
const SUDO = 'site-admin:sudo';
const MCP = 'mcp';

export type McpDoor = 'mcp' | 'mcp-all' | 'mcp-deepsearch';
/** Doors that serve a caller: allowed, they always name a principal. */
export type CallerDoor = 'graphql' | 'stream' | 'deepsearch' | McpDoor;
export type Door = CallerDoor | 'metrics' | 'health' | 'discovery' | 'console' | 'oauth' | 'pages' | 'cluster' | 'other';

/** The site settings the rules read: `auth.public`, anonymous callers on GraphQL and the stream API. */
export interface SiteAccess {
  readonly public: boolean;
}

export interface Refusal {
  readonly status: 401 | 403;
  readonly message: string;
  /** MCP's refusals carry an OAuth Bearer challenge with this error (mcp-auth §3.2). */
  readonly challenge: 'invalid_token' | 'insufficient_scope' | null;
}

/** A refusal as the door sends it. */
export interface RefusalAnswer {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type Decision<P extends Principal | null = Principal | null> =
  | { readonly ok: true; readonly principal: P }
  | { readonly ok: false; readonly refusal: Refusal; readonly answer: RefusalAnswer };

/** How a door words refusals: Sourcegraph's plain texts (reference §4.2), or MCP's (mcp-auth §3.2). */
type Answers = 'sourcegraph' | 'mcp';

interface Rule {
  /** The request paths of this door, for the edge (`/*` takes everything below; exact paths win). */
  readonly paths: readonly string[];
  /** On a private site, a request without credentials is refused `Private mode requires authentication.` first. */
  readonly privateMode: boolean;
  /** The refusal of a request without credentials; null lets it through as anonymous. */
  readonly withoutCredentials: Refusal | null;
  /** `?token=` counts as credentials; else such a request brings none (MCP: proxies and logs keep URLs). */
  readonly queryToken: boolean;
  /** The sign-in session cookie counts as credentials (the web app's own requests); else such a request brings none. */
  readonly sessionCookie: boolean;
  /** The token needs one of these scopes; null: the door looks at no credentials (it holds nothing of anyone's). */
  readonly scopes: readonly string[] | null;
  /** The refusal of a token without one of the scopes. */
  readonly wrongScope: Refusal;
  /** Only site admins pass; the refusal of others. */
  readonly siteAdmin: Refusal | null;
  /** A role permission the user must hold. */
  readonly permission: { readonly name: string; readonly refusal: Refusal } | null;
  /** The operator's metrics scrape token opens this door. */
  readonly scrapeToken: boolean;
  /** The resource this door is, for OAuth audiences: a token bound to an audience passes only where it covers this. */
  readonly resource: string | null;
  /** How its refusals are worded. */
  readonly answers: Answers;
}

const refusal = (status: 401 | 403, message: string, challenge: Refusal['challenge'] = null): Refusal => ({ status, message, challenge });

const PRIVATE = refusal(401, PRIVATE_MODE);
const INVALID = refusal(401, INVALID_TOKEN);
const MCP_ANONYMOUS = refusal(401, MCP_NEEDS_TOKEN, 'invalid_token');
const MCP_WRONG_SCOPE = refusal(403, MCP_SCOPE_MISSING, 'insufficient_scope');
const MCP_FORBIDDEN = refusal(403, 'forbidden');

/** Any credentials, or none: the door answers the same to everyone. */
const OPEN = {
  privateMode: false, withoutCredentials: null, queryToken: true, sessionCookie: false, scopes: null, wrongScope: INVALID, siteAdmin: null,
  permission: null, scrapeToken: false, resource: null, answers: 'sourcegraph',
} as const;

/** GraphQL and the stream API take tokens as Sourcegraph does: `user:all`, or `site-admin:sudo`. */
const SOURCEGRAPH_API = {
  privateMode: true, withoutCredentials: null, queryToken: true, sessionCookie: true, scopes: [USER_ALL, SUDO], wrongScope: INVALID, siteAdmin: null,
  permission: null, scrapeToken: false, answers: 'sourcegraph',
} as const;

/** MCP always needs a token (`mcp`, `user:all` or `site-admin:sudo`), from the header only, and the MCP#ACCESS permission. */
const MCP_ENDPOINT = {
  privateMode: false, withoutCredentials: MCP_ANONYMOUS, queryToken: false, sessionCookie: false, scopes: [MCP, USER_ALL, SUDO], wrongScope: MCP_WRONG_SCOPE,
  siteAdmin: null, permission: { name: MCP_ACCESS, refusal: MCP_FORBIDDEN }, scrapeToken: false, answers: 'mcp',
} as const;

const RULES: Readonly<Record<Door | 'sudo', Rule>> = {
  graphql: { ...SOURCEGRAPH_API, paths: ['/.api/graphql'], resource: '/.api/graphql' },
  stream: { ...SOURCEGRAPH_API, paths: ['/.api/search/stream'], resource: '/.api/search/stream' },
  // Sourcegraph's legacy deep search REST API: its tokens, but never anonymous (a conversation has an owner).
  deepsearch: {
    ...SOURCEGRAPH_API, paths: ['/.api/deepsearch/v1', '/.api/deepsearch/v1/', '/.api/deepsearch/v1/*'], resource: '/.api/deepsearch/v1',
    withoutCredentials: refusal(401, DEEPSEARCH_NEEDS_TOKEN),
  },
  // Unknown paths under /.api/mcp are MCP's to answer (404 `no route`), so they share its row.
  mcp: { ...MCP_ENDPOINT, paths: ['/.api/mcp', '/.api/mcp/', '/.api/mcp/*'], resource: '/.api/mcp' },
  'mcp-all': { ...MCP_ENDPOINT, paths: ['/.api/mcp/all', '/.api/mcp/all/'], resource: '/.api/mcp/all' },
  'mcp-deepsearch': { ...MCP_ENDPOINT, paths: ['/.api/mcp/deepsearch', '/.api/mcp/deepsearch/'], resource: '/.api/mcp/deepsearch' },
  // Private mode first, then a site admin's token (any Sourcegraph API scope) or the scrape token.
  metrics: {
    paths: ['/metrics'], privateMode: true, withoutCredentials: refusal(401, METRICS_NEED_CREDENTIALS), queryToken: true, sessionCookie: false,
    scopes: [USER_ALL, SUDO], wrongScope: INVALID, siteAdmin: refusal(403, METRICS_NEED_ADMIN), permission: null,
    scrapeToken: true, resource: '/metrics', answers: 'sourcegraph',
  },
  health: { ...OPEN, paths: ['/healthz'] },
  // Search nodes' internal calls from front ends: the cluster secret, checked by the handler, is the credential.
  cluster: { ...OPEN, paths: ['/.internal/cluster/*'] },
  // OAuth discovery documents must be readable before a client has any token.
  discovery: { ...OPEN, paths: ['/.well-known/*'] },
  // The console page and its assets, and the web app's assets, hold no data; the console asks for a token.
  console: { ...OPEN, paths: ['/debug/console', '/debug/console/*', '/.assets/*'] },
  // The authorization server: clients authenticate themselves to it, and people through the sign-in session.
  oauth: { ...OPEN, paths: ['/.auth/idp/oauth/*'] },
  // Sign-in and the pages behind it, which read the sign-in session themselves (deep search's also a user:all token).
  pages: { ...OPEN, paths: ['/sign-in', '/sign-out', '/device', '/settings', '/settings/*', '/site-admin/*', '/deepsearch/*'] },
  // The web app (search, repository pages), read as the signed-in person; everything else answers 404,
  // but not to anonymous callers of a private site.
  other: { ...OPEN, paths: [], privateMode: true, sessionCookie: true },
  // token-sudo, through any door: a site admin's token with `site-admin:sudo` acting as another user.
  // Asked of a token's holder while authenticating (authorizeSudo), so only the caller's columns count.
  sudo: { ...OPEN, paths: [], scopes: [SUDO], siteAdmin: refusal(403, SUDO_SUBJECT_NOT_ADMIN) },
};

const DOORS = Object.keys(RULES).filter((d): d is Door => d !== 'sudo');
const EXACT = new Map(DOORS.flatMap((door) => RULES[door].paths.filter((p) => !p.endsWith('/*')).map((p) => [p, door] as const)));
const PREFIXES = DOORS.flatMap((door) => RULES[door].paths.filter((p) => p.endsWith('/*')).map((p) => [p.slice(0, -1), door] as const));

/** The door a request path leads to; `other` when none does. */
export function doorOf(path: string): Door {
  return EXACT.get(path) ?? PREFIXES.find(([prefix]) => path.startsWith(prefix))?.[1] ?? 'other';
}

/**
 * The door's answer to the request's authentication: the principal it serves (null where the
 * door serves no caller: an open door, the scrape token on /metrics), or the refusal and its
 * answer. `site` is read only for requests without credentials.
 */
export function authorize(auth: Authentication, door: CallerDoor, site: () => SiteAccess): Decision<Principal>;
export function authorize(auth: Authentication, door: Door, site: () => SiteAccess): Decision;
export function authorize(auth: Authentication, door: Door, site: () => SiteAccess): Decision {
  const rule = RULES[door];
  const refuse = (refusal: Refusal): Decision => ({ ok: false, refusal, answer: answerOf(refusal, rule.answers) });
  if (!presented(auth, rule)) {
    if (rule.privateMode && !site().public) return refuse(PRIVATE);
    if (rule.withoutCredentials !== null) return refuse(rule.withoutCredentials);
    return { ok: true, principal: auth.ok && auth.via === 'none' ? auth.principal : null };
  }
  if ((rule.scrapeToken && auth.scrapeToken) || rule.scopes === null) return { ok: true, principal: auth.ok ? auth.principal : null };
  if (!auth.ok) return refuse(failed(auth.failure, rule.answers));
  const refused = permits(auth.principal, rule);
  return refused === null ? { ok: true, principal: auth.principal } : refuse(refused);
}

/**
 * The edge's part of the table, asked of every request before its door: private mode. It reads
 * the request's authentication only on doors private mode closes, so open doors never cost one.
 */
export function privateModeRefusal(request: { readonly path: string; readonly auth: Authentication }, site: () => SiteAccess): RefusalAnswer | null {
  const rule = RULES[doorOf(request.path)];
  if (!rule.privateMode || presented(request.auth, rule) || site().public) return null;
  return answerOf(PRIVATE, rule.answers);
}

/** The sudo row: whether the holder of a token may act as another user with token-sudo. */
export function authorizeSudo(holder: Pick<Identity, 'scopes' | 'siteAdmin' | 'audience'>): AuthFailure | null {
  // The sudo row asks for no role permission, so the holder's are never read.
  const refused = permits({ ...holder, permissions: [] }, RULES.sudo);
  return refused === null ? null : { status: refused.status, message: refused.message };
}

function presented(auth: Authentication, rule: Rule): boolean {
  return auth.via === 'header' || (auth.via === 'query' && rule.queryToken) || (auth.via === 'session' && rule.sessionCookie);
}

/** The rules on who the caller is, in the order their refusals take precedence. */
function permits(identity: Pick<Identity, 'scopes' | 'siteAdmin' | 'audience' | 'permissions'>, rule: Rule): Refusal | null {
  if (identity.audience !== null && (rule.resource === null || !covers(identity.audience, rule.resource))) return wrongAudience(rule.answers);
  if (rule.scopes !== null && !rule.scopes.some((scope) => identity.scopes.includes(scope))) return rule.wrongScope;
  if (rule.siteAdmin !== null && !identity.siteAdmin) return rule.siteAdmin;
  if (rule.permission !== null && !identity.permissions.includes(rule.permission.name)) return rule.permission.refusal;
  return null;
}

/** mcp-auth §3.8: an audience covers its own path and everything below it; `/` is the whole server. */
function covers(audience: string, resource: string): boolean {
  return audience === '/' || resource === audience || resource.startsWith(`${audience}/`);
}

/** Credentials that did not authenticate: Sourcegraph's text as it is; MCP always answers 401 with its challenge. */
function failed(failure: AuthFailure, answers: Answers): Refusal {
  return answers === 'mcp' ? refusal(401, failure.message, 'invalid_token') : refusal(failure.status, failure.message);
}

function wrongAudience(answers: Answers): Refusal {
  return answers === 'mcp' ? refusal(401, WRONG_AUDIENCE, 'invalid_token') : INVALID;
}

const SOURCEGRAPH_HEADERS = Object.freeze({ 'Content-Type': 'text/plain; charset=utf-8', Vary: 'Authorization' });
const PLAIN_HEADERS = Object.freeze({ 'Content-Type': 'text/plain; charset=utf-8' });

function answerOf(refused: Refusal, answers: Answers): RefusalAnswer {
  const text = `${refused.message}\n`;
  if (answers === 'sourcegraph') return { status: refused.status, body: text, headers: SOURCEGRAPH_HEADERS };
  if (refused.challenge === null) return { status: refused.status, body: text, headers: PLAIN_HEADERS };
  return {
    status: refused.status,
    body: JSON.stringify({ error: refused.challenge, error_description: refused.message }),
    headers: { 'Content-Type': 'application/json', 'WWW-Authenticate': bearerChallenge(refused.challenge, refused.message) },
  };
}

/** An MCP refusal with the URL of its endpoint's protected resource metadata added to the challenge (RFC 9728 §5.1). */
export function withResourceMetadata(answer: RefusalAnswer, metadataUrl: string): RefusalAnswer {
  const challenge = answer.headers['WWW-Authenticate'];
  if (challenge === undefined) return answer;
  return { ...answer, headers: { ...answer.headers, 'WWW-Authenticate': `${challenge}, resource_metadata="${metadataUrl.replace(/["\\]/g, '')}"` } };
}

function bearerChallenge(error: string, description: string): string {
  return `Bearer realm="Quarry", error="${error}", error_description="${description.replace(/["\\]/g, '')}", scope="mcp"`;
}
