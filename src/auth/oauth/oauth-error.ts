/**
 * An OAuth error as the endpoints answer it (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8628 §3.5): the
 * status, the `error` code and a description saying what to change. Plain data.
 */

export interface OAuthFailure {
  readonly status: 400 | 401 | 403 | 404 | 429;
  readonly error: string;
  readonly description: string;
}

export const oauthFailure = (error: string, description: string, status: OAuthFailure['status'] = 400): OAuthFailure => ({ status, error, description });

export type OAuthResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: OAuthFailure };

export const success = <T>(value: T): OAuthResult<T> => ({ ok: true, value });
export const failure = <T>(error: string, description: string, status: OAuthFailure['status'] = 400): OAuthResult<T> => ({ ok: false, failure: oauthFailure(error, description, status) });
