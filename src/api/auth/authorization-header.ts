/**
 * RFC 7235's token68 (§2.1; RFC 6750 §2.1 calls it b64token): letters, digits, `-._~+/`, then
 * any number of `=`. Basic credentials (base64) and bearer tokens are written in it.
 */
export const TOKEN68_SOURCE = '[A-Za-z0-9\\-._~+/]+=*';

/** The 401 message of a header outside the grammar of {@link readAuthorization}. */
export const MALFORMED_AUTHORIZATION_MESSAGE =
  'Malformed Authorization header: expected Basic or Bearer (in any case), one or more spaces, then the credentials as one token (RFC 7235)';

/** What an `Authorization` header holds, as far as pacer's two schemes are concerned. */
export type AuthorizationHeader =
  /** No header: the caller offers no credentials. */
  | { readonly kind: 'absent' }
  /** `Basic` or `Bearer`, in any case, and its one token68 (not yet decoded or checked). */
  | { readonly kind: 'credentials'; readonly scheme: 'basic' | 'bearer'; readonly token: string }
  /** Another scheme, well formed (`Digest …`, `Negotiate …`): pacer takes none of them. */
  | { readonly kind: 'other-scheme' }
  /** Outside the grammar: answered with {@link MALFORMED_AUTHORIZATION_MESSAGE}. */
  | { readonly kind: 'malformed' };

const TCHAR = "[!#$%&'*+.^_`|~0-9A-Za-z-]";
/** `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`: the scheme, then what follows its spaces. */
const CREDENTIALS = new RegExp(`^(${TCHAR}+)(?: +(.*))?$`, 's');
const TOKEN68 = new RegExp(`^${TOKEN68_SOURCE}$`);

/**
 * Reads an `Authorization` header by RFC 7235 §2.1 (RFC 9110 §11.4): `auth-scheme [ 1*SP
 * ( token68 / #auth-param ) ]`. The scheme is case-insensitive (`basic`, `BEARER`); one or more
 * spaces (SP only: a tab there is outside the grammar) separate it from the credentials, which for
 * Basic (RFC 7617) and Bearer (RFC 6750 §2.1, `"Bearer" 1*SP b64token`) are exactly one token68 —
 * nothing may follow it. Spaces and tabs around the whole value are the field's own whitespace
 * (RFC 9110 §5.5) and are dropped, as Node's HTTP parser drops them. Marathon's Jetty
 * `BasicAuthenticator` also compares the scheme ignoring case. Never throws.
 */
export function readAuthorization(value: string | readonly string[] | undefined): AuthorizationHeader {
  if (value === undefined) return { kind: 'absent' };
  if (typeof value !== 'string') return { kind: 'malformed' };
  const match = CREDENTIALS.exec(value.replace(/^[ \t]+|[ \t]+$/g, ''));
  if (match === null) return { kind: 'malformed' };
  const scheme = match[1].toLowerCase();
  const rest = match[2];
  if (scheme !== 'basic' && scheme !== 'bearer') return { kind: 'other-scheme' };
  if (rest === undefined || !TOKEN68.test(rest)) return { kind: 'malformed' };
  return { kind: 'credentials', scheme, token: rest };
}
