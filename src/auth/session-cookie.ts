/**
 * The sign-in session cookie as every door reads it: its name (`__Host-` prefixed over TLS, so no
 * sibling host or plain-HTTP page can plant one) and the cookie header parsed. Sets nothing.
 */

export const SESSION_COOKIE = 'quarry_session';
export const PRESESSION_COOKIE = 'quarry_presession';

export function cookieName(base: string, secure: boolean): string {
  return secure ? `__Host-${base}` : base;
}

/** The first value of each cookie name (a later duplicate may come from a less specific path). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(eq + 1).trim());
  }
  return cookies;
}

/** The session id the request's cookie presents, or null. */
export function presentedSessionId(headers: Readonly<Record<string, string | undefined>>, secure: boolean): string | null {
  const value = parseCookies(headers['cookie']).get(cookieName(SESSION_COOKIE, secure));
  return value === undefined || value === '' ? null : value;
}
