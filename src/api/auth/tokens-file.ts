import { createHash } from 'node:crypto';
import { TOKEN68_SOURCE } from './authorization-header';

/** One bearer token of a tokens file: its principal and the SHA-256 of the token. */
export interface TokenEntry {
  readonly principal: string;
  readonly sha256: Buffer;
}

/** Shorter plain tokens are refused: a bearer token must not be guessable. */
export const MIN_TOKEN_CHARS = 16;

const HASHED = /^sha256:([0-9a-f]{64})$/i;
/** What `Authorization: Bearer <token>` can carry (RFC 6750 §2.1 b64token): any other token could never be presented. */
const PRESENTABLE = new RegExp(`^${TOKEN68_SOURCE}$`);

/**
 * Reads a tokens file: one `principal:token` per line (a principal may have several tokens, for
 * rotation); the token may be given as `sha256:<64 hex digits>` — the SHA-256 of the token, so the
 * file need not hold the token itself (`printf %s TOKEN | sha256sum`). A plain token must be one
 * an `Authorization: Bearer` header can carry (RFC 6750's b64token: letters, digits, `-._~+/`,
 * then `=` only at the end; `authorization-header.ts`). Blank lines and lines
 * starting with `#` are ignored. Only digests are kept in memory. Errors name the line, never its
 * content.
 */
export function parseTokensFile(text: string): TokenEntry[] | { error: string } {
  const entries: TokenEntry[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    const principal = colon < 0 ? '' : line.slice(0, colon);
    const token = colon < 0 ? '' : line.slice(colon + 1);
    if (principal === '' || token === '') return { error: `line ${i + 1}: expected principal:token or principal:sha256:<hex>` };
    const hashed = HASHED.exec(token);
    if (hashed === null && token.length < MIN_TOKEN_CHARS) return { error: `line ${i + 1}: the token of ${JSON.stringify(principal)} is shorter than ${MIN_TOKEN_CHARS} characters` };
    if (hashed === null && !PRESENTABLE.test(token)) return { error: `line ${i + 1}: the token of ${JSON.stringify(principal)} has characters a bearer token cannot carry (letters, digits, -._~+/, then = only at the end)` };
    const sha256 = hashed === null ? tokenDigest(token) : Buffer.from(hashed[1], 'hex');
    if (entries.some((e) => e.sha256.equals(sha256))) return { error: `line ${i + 1}: the token of ${JSON.stringify(principal)} is also given on an earlier line` };
    entries.push({ principal, sha256 });
  }
  return entries;
}

/** The SHA-256 of a presented or configured token. */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
