/**
 * Parses an Authorization header into the credentials it carries (reference §4.2). Syntax only:
 * whether a token is valid is authenticate.ts's question.
 */

export type Credentials =
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'sudo'; readonly token: string; readonly user: string };

/** A parse failure, carrying the text the 401 answer uses. */
export type HeaderParse = { readonly ok: true; readonly credentials: Credentials } | { readonly ok: false; readonly message: string };

export const INVALID_HEADER = 'Invalid Authorization header.';
export const SUDO_FORM = 'HTTP Authorization request header value must be of the following form: token="TOKEN",user="USERNAME"';
export const NO_SUDO_TOKEN = 'no token value in the HTTP Authorization request header';

const SINGLE_VALUE = /^[^\s,]+$/;
// key=value or key="quoted value" (backslash escapes), then a comma or the end.
const PARAM = /\s*([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s",]*))\s*(?:,|$)/y;

const invalid = (message = INVALID_HEADER): HeaderParse => ({ ok: false, message });

function parseParams(text: string): Map<string, string> | undefined {
  const params = new Map<string, string>();
  PARAM.lastIndex = 0;
  while (PARAM.lastIndex < text.length) {
    const match = PARAM.exec(text);
    if (match === null) return undefined;
    const key = (match[1] ?? '').toLowerCase();
    if (params.has(key)) return undefined;
    params.set(key, match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? ''));
  }
  return params;
}

function parseSudo(value: string): HeaderParse {
  if (!value.includes('=')) return invalid(SUDO_FORM);
  const params = parseParams(value);
  if (params === undefined) return invalid();
  const token = params.get('token');
  if (token === undefined || token === '') return invalid(NO_SUDO_TOKEN);
  const user = params.get('user');
  // Like Sourcegraph, token-sudo without a user is plain token authentication.
  return { ok: true, credentials: user === undefined || user === '' ? { kind: 'token', token } : { kind: 'sudo', token, user } };
}

function parseBasic(value: string): HeaderParse {
  if (!SINGLE_VALUE.test(value)) return invalid();
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const token = decoded.split(':')[0] ?? '';
  return token === '' ? invalid() : { ok: true, credentials: { kind: 'token', token } };
}

/** `token T`, `Bearer T`, `Basic base64(T:)` and `token-sudo user="U",token="T"`; other schemes are refused. */
export function parseAuthorizationHeader(header: string): HeaderParse {
  const trimmed = header.trim();
  const space = trimmed.search(/\s/);
  const scheme = (space === -1 ? trimmed : trimmed.slice(0, space)).toLowerCase();
  const value = space === -1 ? '' : trimmed.slice(space).trim();
  switch (scheme) {
    case 'token':
    case 'bearer':
      return SINGLE_VALUE.test(value) ? { ok: true, credentials: { kind: 'token', token: value } } : invalid();
    case 'token-sudo':
      return parseSudo(value);
    case 'basic':
      return parseBasic(value);
    default:
      return invalid();
  }
}
