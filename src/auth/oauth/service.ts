/**
 * The authorization server and the sign-in session as the HTTP doors use them: one object closed
 * over the store, reading the site configuration (lifetimes, `externalURL`, whether dynamic
 * registration is on) at every call, so a change applies to the next request of any process.
 * The doors see no store; everything they may do is here.
 */
import { purgeExpired } from '../../store/expiry.js';
import { consentCovers, createAuthorizationCode, decideDevice, findPendingDevice, normalizeUserCode, rememberConsent } from '../../store/oauth-codes.js';
import { getOAuthClient } from '../../store/oauth-clients.js';
import type { OAuthDeviceRecord, Store, UserRecord } from '../../store/records.js';
import { getSiteConfig, type SiteConfiguration } from '../../store/site-config.js';
import { signedInUser, signIn, signOut, SignInLimiter, type SignInResult } from '../sign-in.js';
import { refreshMetadataDocumentClient } from './client-metadata-document.js';
import { checkAuthorizationRequest, redirectLocation, type AuthorizationCheck, type AuthorizationRequest } from './authorization-request.js';
import { deviceAuthorization, type DeviceAnswer } from './device-authorization.js';
import { introspect, revoke } from './introspection.js';
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata.js';
import type { OAuthResult } from './oauth-error.js';
import { registerClient } from './registration.js';
import { overTls, siteOrigin } from './resources.js';
import { tokenRequest, type OAuthSettings, type TokenAnswer } from './token-grants.js';

type HeaderMap = Readonly<Record<string, string | undefined>>;

/** A signed-in person, as the pages see them. */
export type Account = UserRecord;

const CODE_LIFETIME_MS = 60_000;

/** A device authorization waiting for a person, as the `/device` page shows it. */
export interface PendingDevice {
  readonly userCode: string;
  readonly clientName: string;
  readonly scopes: readonly string[];
  readonly resource: string;
}

export interface IdentityProvider {
  /** The origin this request reached us at (issuer, redirects, audiences). */
  origin(headers: HeaderMap): string;
  /** Whether cookies set for this request must be Secure. */
  overTls(headers: HeaderMap): boolean;
  /** Dynamic registration is on (`auth.idpDynamicClientRegistrationEnabled`, off whenever `mcp.enabled` is). */
  dynamicRegistration(): boolean;
  mcpEnabled(): boolean;
  authorizationServerMetadata(origin: string): Record<string, unknown>;
  protectedResourceMetadata(origin: string, resource: string): Record<string, unknown>;
  register(body: unknown): OAuthResult<Record<string, unknown>>;
  /** Before checking an authorization request: reads (or reuses the cached copy of) the metadata document a URL client_id names; why it cannot be used, or null. */
  prepareClient(clientId: string | null): Promise<string | null>;
  checkAuthorization(params: URLSearchParams, origin: string): AuthorizationCheck;
  /** Whether the user already allowed this request's client, scopes and resource. */
  consented(user: UserRecord, request: AuthorizationRequest): boolean;
  /** The user allowed (remembered) or denied the request: where the browser goes next. */
  decide(user: UserRecord, request: AuthorizationRequest, origin: string, allow: boolean): string;
  token(authorization: string | undefined, form: URLSearchParams, origin: string): OAuthResult<TokenAnswer>;
  deviceAuthorization(authorization: string | undefined, form: URLSearchParams, origin: string): OAuthResult<DeviceAnswer>;
  pendingDevice(typedCode: string): PendingDevice | null;
  decideDevice(user: UserRecord, userCode: string, approve: boolean): boolean;
  introspect(authorization: string | undefined, form: URLSearchParams, origin: string): OAuthResult<Record<string, unknown>>;
  revoke(authorization: string | undefined, form: URLSearchParams): OAuthResult<null>;
  signIn(attempt: { username: string; password: string; address: string; previousSessionId: string | null }): Promise<SignInResult>;
  signedInUser(sessionId: string | null): UserRecord | null;
  signOut(sessionId: string | null): void;
  sessionLifetimeSeconds(): number;
}

export function createIdentityProvider(store: Store, limiter = new SignInLimiter()): IdentityProvider {
  const site = (): SiteConfiguration => getSiteConfig(store).effective;
  /** Every request that stores codes, tokens or a session also sweeps a bounded slice of what expired. */
  const thenPurge = <T>(result: T): T => {
    purgeExpired(store);
    return result;
  };
  const dynamicRegistration = () => site().auth.idpDynamicClientRegistrationEnabled;
  const oauthSettings = (): OAuthSettings => {
    const { oauth } = site().auth;
    return {
      dynamicRegistration: dynamicRegistration(),
      accessTokenMs: oauth.accessTokenExpirySeconds * 1000,
      refreshTokenMs: oauth.refreshTokenExpiryDays * 86_400_000,
      reuseGraceMs: oauth.refreshTokenReuseGraceSeconds * 1000,
    };
  };
  const pending = (typed: string): { userCode: string; device: OAuthDeviceRecord } | null => {
    const userCode = normalizeUserCode(typed);
    const device = userCode === null ? undefined : findPendingDevice(store, userCode);
    return userCode === null || device === undefined ? null : { userCode, device };
  };
  return {
    origin: (headers) => siteOrigin(headers, site().externalURL),
    overTls: (headers) => overTls(headers, site().externalURL),
    dynamicRegistration,
    mcpEnabled: () => site().mcp.enabled,
    authorizationServerMetadata: (origin) => authorizationServerMetadata(origin, dynamicRegistration()),
    protectedResourceMetadata,
    register: (body) => registerClient(store, body),
    prepareClient: async (clientId) => {
      if (clientId === null || !dynamicRegistration()) return null;
      return refreshMetadataDocumentClient(store, clientId, site().auth.oauth.clientMetadataDocumentsAllowLoopback);
    },
    checkAuthorization: (params, origin) => checkAuthorizationRequest(store, params, origin, dynamicRegistration()),
    consented: (user, request) => consentCovers(store, user.id, request.client.id, request.scopes, request.resource),
    decide(user, request, origin, allow) {
      if (!allow) return redirectLocation(request.redirectUri, origin, { error: 'access_denied', error_description: 'the user denied the request', state: request.state });
      rememberConsent(store, user.id, request.client.id, request.scopes, request.resource);
      const code = createAuthorizationCode(store, {
        clientId: request.client.id, userId: user.id, redirectUri: request.redirectUri, codeChallenge: request.codeChallenge,
        scopes: request.scopes, resource: request.resource,
      }, CODE_LIFETIME_MS);
      return thenPurge(redirectLocation(request.redirectUri, origin, { code, state: request.state }));
    },
    token: (authorization, form, origin) => thenPurge(tokenRequest(store, authorization, form, origin, oauthSettings())),
    deviceAuthorization: (authorization, form, origin) => thenPurge(deviceAuthorization(store, authorization, form, origin, dynamicRegistration())),
    pendingDevice(typed) {
      const found = pending(typed);
      if (found === null) return null;
      const client = getOAuthClient(store, found.device.clientId);
      return { userCode: found.userCode, clientName: client?.name ?? found.device.clientId, scopes: found.device.scopes, resource: found.device.resource };
    },
    decideDevice(user, typed, approve) {
      const found = pending(typed);
      return found !== null && decideDevice(store, found.userCode, user.id, approve);
    },
    introspect: (authorization, form, origin) => introspect(store, authorization, form, origin, dynamicRegistration()),
    revoke: (authorization, form) => revoke(store, authorization, form, dynamicRegistration()),
    signIn: async (attempt) => thenPurge(await signIn(store, limiter, attempt, site().auth.sessionExpiryHours * 3_600_000)),
    signedInUser: (sessionId) => signedInUser(store, sessionId),
    signOut: (sessionId) => signOut(store, sessionId),
    sessionLifetimeSeconds: () => site().auth.sessionExpiryHours * 3600,
  };
}
