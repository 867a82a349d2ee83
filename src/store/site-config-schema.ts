/**
 * The site configuration's known settings, their types and defaults, and how a parsed document
 * becomes the effective configuration. Pure: no storage here.
 *
 * Key style: a setting's name is a dotted path, and a document may spell any prefix of it as
 * nested objects, as Sourcegraph's docs mix both: `{"mcp.enabled": false}`, `{"mcp": {"enabled":
 * false}}` and `{"search": {"limits.maxResults": 5}}` are all accepted. Setting one path twice
 * through different spellings, unknown keys and wrong types are errors.
 */

import { createError } from '../errors.js';
import { isMcpToolName, MCP_TOOL_NAMES } from '../model/mcp-tools.js';
import type { JsonValue } from './jsonc.js';

/** `non-negative integer` settings are limits where 0 switches the limit off. */
type SettingKind = 'boolean' | 'positive integer' | 'non-negative integer' | 'list of MCP tool names' | 'http(s) URL or empty' | 'string';

type SettingValue = boolean | number | string | readonly string[];

const SETTINGS: Readonly<Record<string, { readonly kind: SettingKind; readonly default: SettingValue }>> = {
  'mcp.enabled': { kind: 'boolean', default: true },
  'mcp.maxAnswerTokens': { kind: 'positive integer', default: 8000 },
  'mcp.tools.disabled': { kind: 'list of MCP tool names', default: [] },
  'auth.idpDynamicClientRegistrationEnabled': { kind: 'boolean', default: true },
  'auth.public': { kind: 'boolean', default: false },
  'auth.sessionExpiryHours': { kind: 'positive integer', default: 720 },
  'auth.oauth.accessTokenExpirySeconds': { kind: 'positive integer', default: 3600 },
  'auth.oauth.refreshTokenExpiryDays': { kind: 'positive integer', default: 90 },
  'auth.oauth.refreshTokenReuseGraceSeconds': { kind: 'non-negative integer', default: 30 },
  'auth.oauth.clientMetadataDocumentsAllowLoopback': { kind: 'boolean', default: false },
  externalURL: { kind: 'http(s) URL or empty', default: '' },
  'rateLimits.graphQLMaxDepth': { kind: 'positive integer', default: 30 },
  'rateLimits.graphQLMaxFieldCount': { kind: 'positive integer', default: 500000 },
  'rateLimits.graphQLMaxAliases': { kind: 'positive integer', default: 500 },
  'rateLimits.graphQLMaxDuplicateFieldCount': { kind: 'positive integer', default: 500 },
  'rateLimits.graphQLMaxUniqueFieldCount': { kind: 'positive integer', default: 500 },
  'rateLimits.graphQLMaxExpandedSelections': { kind: 'positive integer', default: 1000 },
  'rateLimits.graphQLMaxSearches': { kind: 'positive integer', default: 5 },
  'rateLimits.requestsPerMinute': { kind: 'non-negative integer', default: 6000 },
  'rateLimits.anonymousRequestsPerMinute': { kind: 'non-negative integer', default: 1200 },
  'rateLimits.concurrentRequests': { kind: 'non-negative integer', default: 16 },
  'rateLimits.queuedRequests': { kind: 'non-negative integer', default: 64 },
  'rateLimits.queueTimeoutSeconds': { kind: 'positive integer', default: 10 },
  'search.limits.maxTimeoutSeconds': { kind: 'positive integer', default: 60 },
  'search.defaultTimeoutSeconds': { kind: 'positive integer', default: 10 },
  'search.limits.maxResults': { kind: 'positive integer', default: 10000 },
  'search.limits.maxCount': { kind: 'positive integer', default: 500000 },
  'repos.syncIntervalSeconds': { kind: 'positive integer', default: 600 },
  'http.maxBodyBytes': { kind: 'positive integer', default: 10485760 },
  'deepSearch.evaluator.maxGeneratedFileSizeBytes': { kind: 'positive integer', default: 10485760 },
  'deepSearch.evaluator.maxSearchesPerExecution': { kind: 'positive integer', default: 100 },
  'deepSearch.evaluator.maxSourceReadsPerExecution': { kind: 'positive integer', default: 1000 },
  'deepSearch.evaluator.maxExecutionSeconds': { kind: 'positive integer', default: 30 },
  'deepSearch.evaluator.maxMemoryBytes': { kind: 'positive integer', default: 134217728 },
  'deepSearch.maxSteps': { kind: 'positive integer', default: 12 },
  'deepSearch.maxToolCalls': { kind: 'positive integer', default: 40 },
  'deepSearch.maxTokens': { kind: 'positive integer', default: 200000 },
  'deepSearch.maxSeconds': { kind: 'positive integer', default: 300 },
  'deepSearch.mcpWaitSeconds': { kind: 'positive integer', default: 50 },
  'deepSearch.model.endpoint': { kind: 'string', default: '' },
  'deepSearch.model.name': { kind: 'string', default: '' },
  'deepSearch.model.apiKeyEnvVar': { kind: 'string', default: '' },
};

/** A sandbox worker needs this much heap for the Lua VM itself, before a script stores anything. */
const MIN_EVALUATOR_MEMORY_BYTES = 32 * 1024 * 1024;
/** Longer runs would outlast any client's patience (and the longest timer Node keeps exact). */
const MAX_EVALUATOR_SECONDS = 3600;

export const SITE_CONFIG_KEYS: readonly string[] = Object.keys(SETTINGS);

export interface SiteConfiguration {
  /**
   * maxAnswerTokens: every MCP tool answer fits this many tokens (about 4 characters each).
   * tools.disabled: tools hidden from tools/list on every endpoint and refused when called.
   */
  readonly mcp: { readonly enabled: boolean; readonly maxAnswerTokens: number; readonly tools: { readonly disabled: readonly string[] } };
  readonly auth: {
    /** Effective value: false whenever mcp.enabled is false. */
    readonly idpDynamicClientRegistrationEnabled: boolean;
    /** Anonymous callers may use GraphQL and the stream API (public repositories only); false: sign-in required. */
    readonly public: boolean;
    /** How long a browser sign-in lasts. */
    readonly sessionExpiryHours: number;
    /**
     * The authorization server's token lifetimes, and how long a used refresh token still answers its successor.
     * clientMetadataDocumentsAllowLoopback: client ID metadata documents may be fetched from a loopback address (tests, a one-machine setup); private ranges never.
     */
    readonly oauth: {
      readonly accessTokenExpirySeconds: number;
      readonly refreshTokenExpiryDays: number;
      readonly refreshTokenReuseGraceSeconds: number;
      readonly clientMetadataDocumentsAllowLoopback: boolean;
    };
  };
  /** The origin users reach the instance at (Sourcegraph's setting); empty: the request's own Host. https here makes cookies Secure. */
  readonly externalURL: string;
  readonly rateLimits: {
    readonly graphQLMaxDepth: number;
    readonly graphQLMaxFieldCount: number;
    readonly graphQLMaxAliases: number;
    readonly graphQLMaxDuplicateFieldCount: number;
    readonly graphQLMaxUniqueFieldCount: number;
    /** Quarry's own: fields and fragment spreads of all operations, fragments expanded; bounds validation and compile work. */
    readonly graphQLMaxExpandedSelections: number;
    /** Quarry's own: searches one GraphQL request may start (they run one after another). */
    readonly graphQLMaxSearches: number;
    /** Per access token (0: no limit); a burst may spend the whole minute's budget at once. */
    readonly requestsPerMinute: number;
    /** Per client address, for requests without a valid token (0: no limit). */
    readonly anonymousRequestsPerMinute: number;
    /** Requests of one caller answered at once (0: no limit); more wait in that caller's own queue. */
    readonly concurrentRequests: number;
    /** Requests of one caller that may wait; past that, 429. */
    readonly queuedRequests: number;
    /** How long a queued request waits for its turn before 429. */
    readonly queueTimeoutSeconds: number;
  };
  /** maxResults: the match limit without count:; maxCount: the most matches any search collects, count:all included. */
  readonly search: { readonly defaultTimeoutSeconds: number; readonly limits: { readonly maxTimeoutSeconds: number; readonly maxResults: number; readonly maxCount: number } };
  readonly repos: { readonly syncIntervalSeconds: number };
  readonly http: { readonly maxBodyBytes: number };
  /**
   * The evaluator tool's limits per run: Sourcegraph's three, and Quarry's deadline and memory cap
   * (the sandbox worker's heap, and separately the bytes of Lua strings alive at once).
   */
  readonly deepSearch: {
    /** Per question: model turns, tool calls, model tokens and wall time; the MCP tool's wait before it answers with a link to poll. */
    readonly maxSteps: number;
    readonly maxToolCalls: number;
    readonly maxTokens: number;
    readonly maxSeconds: number;
    readonly mcpWaitSeconds: number;
    /**
     * An OpenAI-compatible chat completions server (`endpoint` is its base URL, e.g.
     * `http://127.0.0.1:11434/v1`); empty: the offline researcher. The key is read from the
     * environment variable `apiKeyEnvVar` names, never stored here.
     */
    readonly model: { readonly endpoint: string; readonly name: string; readonly apiKeyEnvVar: string };
    readonly evaluator: {
      readonly maxGeneratedFileSizeBytes: number;
      readonly maxSearchesPerExecution: number;
      readonly maxSourceReadsPerExecution: number;
      readonly maxExecutionSeconds: number;
      readonly maxMemoryBytes: number;
    };
  };
}

function invalid(message: string, path: string): never {
  throw createError('CONFIG_INVALID', `invalid site configuration: ${message}`, { key: path });
}

function checkType(path: string, kind: SettingKind, value: JsonValue): void {
  if (kind === 'list of MCP tool names') return checkToolNames(path, value);
  if (kind === 'http(s) URL or empty') return checkOriginUrl(path, value);
  if (kind === 'string') {
    if (typeof value !== 'string') invalid(`"${path}" must be a string, not ${JSON.stringify(value)}`, path);
    return;
  }
  const ok = kind === 'boolean' ? typeof value === 'boolean' : typeof value === 'number' && Number.isSafeInteger(value) && value >= (kind === 'positive integer' ? 1 : 0);
  if (!ok) invalid(`"${path}" must be a ${kind}, not ${JSON.stringify(value)}`, path);
}

/** Refused when written: a misspelt name would otherwise leave the tool it meant enabled, silently. */
function checkToolNames(path: string, value: JsonValue): void {
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) invalid(`"${path}" must be a list of MCP tool names, not ${JSON.stringify(value)}`, path);
  for (const name of value as string[]) {
    if (isMcpToolName(name)) continue;
    // Sourcegraph's 6.x names carried this prefix; its docs ask for the names without it, as here.
    const unprefixed = name.startsWith('sg_') && isMcpToolName(name.slice(3)) ? ` (use "${name.slice(3)}": tool names have no sg_ prefix)` : '';
    invalid(`"${path}" names an unknown tool ${JSON.stringify(name)}${unprefixed}; the tools are ${MCP_TOOL_NAMES.join(', ')}`, path);
  }
}

/** An origin with nothing after it: issuers, redirects and audiences are built on it. */
function checkOriginUrl(path: string, value: JsonValue): void {
  if (value === '') return;
  let url: URL | null = null;
  try {
    url = typeof value === 'string' ? new URL(value) : null;
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== String(value).replace(/\/$/, '')) {
    invalid(`"${path}" must be an http(s) origin such as "https://quarry.example.com" (no path), not ${JSON.stringify(value)}`, path);
  }
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function collect(object: { [key: string]: JsonValue }, prefix: string, found: Map<string, JsonValue>): void {
  for (const [key, value] of Object.entries(object)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const setting = SETTINGS[path];
    if (setting !== undefined) {
      if (found.has(path)) invalid(`"${path}" is set twice`, path);
      checkType(path, setting.kind, value);
      found.set(path, value);
    } else if (SITE_CONFIG_KEYS.some((k) => k.startsWith(`${path}.`))) {
      if (!isObject(value)) invalid(`"${path}" must be an object`, path);
      collect(value, path, found);
    } else {
      invalid(`unknown setting "${path}" (known: ${SITE_CONFIG_KEYS.join(', ')})`, path);
    }
  }
}

function nest(flat: ReadonlyMap<string, SettingValue>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [path, value] of flat) {
    const parts = path.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1] ?? ''] = value;
  }
  return root;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/** Validates a parsed document and applies defaults; CONFIG_INVALID names the offending key. */
export function effectiveSiteConfig(document: JsonValue): SiteConfiguration {
  if (!isObject(document)) invalid('the document must be a JSON object', '');
  const found = new Map<string, JsonValue>();
  collect(document, '', found);
  const flat = new Map<string, SettingValue>();
  for (const [path, setting] of Object.entries(SETTINGS)) flat.set(path, (found.get(path) as SettingValue | undefined) ?? setting.default);
  if (flat.get('mcp.enabled') === false) flat.set('auth.idpDynamicClientRegistrationEnabled', false);
  const config = nest(flat) as unknown as SiteConfiguration;
  if (config.search.defaultTimeoutSeconds > config.search.limits.maxTimeoutSeconds) {
    invalid('"search.defaultTimeoutSeconds" must not exceed "search.limits.maxTimeoutSeconds"', 'search.defaultTimeoutSeconds');
  }
  const { evaluator } = config.deepSearch;
  if (evaluator.maxMemoryBytes < MIN_EVALUATOR_MEMORY_BYTES) {
    invalid(`"deepSearch.evaluator.maxMemoryBytes" must be at least ${MIN_EVALUATOR_MEMORY_BYTES} (32 MiB), not ${evaluator.maxMemoryBytes}`, 'deepSearch.evaluator.maxMemoryBytes');
  }
  if (evaluator.maxExecutionSeconds > MAX_EVALUATOR_SECONDS) {
    invalid(`"deepSearch.evaluator.maxExecutionSeconds" must be at most ${MAX_EVALUATOR_SECONDS}, not ${evaluator.maxExecutionSeconds}`, 'deepSearch.evaluator.maxExecutionSeconds');
  }
  checkModel(config.deepSearch.model);
  return deepFreeze(config);
}

/** Refused when written: a typo here would otherwise show only when a question fails. */
function checkModel(model: SiteConfiguration['deepSearch']['model']): void {
  if (model.endpoint === '') return;
  let url: URL | null = null;
  try {
    url = new URL(model.endpoint);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) invalid(`"deepSearch.model.endpoint" must be an http(s) URL such as http://127.0.0.1:11434/v1, not ${JSON.stringify(model.endpoint)}`, 'deepSearch.model.endpoint');
  if (model.name === '') invalid('"deepSearch.model.name" must name the model when "deepSearch.model.endpoint" is set', 'deepSearch.model.name');
  if (model.apiKeyEnvVar !== '' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(model.apiKeyEnvVar)) invalid(`"deepSearch.model.apiKeyEnvVar" must be the name of an environment variable (the key itself never goes in the configuration), not ${JSON.stringify(model.apiKeyEnvVar)}`, 'deepSearch.model.apiKeyEnvVar');
}
