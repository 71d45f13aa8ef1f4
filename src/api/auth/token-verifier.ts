import { timingSafeEqual } from 'node:crypto';
import { tokenDigest, type TokenEntry } from './tokens-file';

/** Where the tokens come from (a reloadable tokens file). */
export interface TokenSource {
  readonly content: readonly TokenEntry[];
}

/**
 * Finds the principal of a bearer token: the token's SHA-256 is compared with every configured
 * digest with `timingSafeEqual`, all of them, whatever matched, so the time taken does not depend
 * on which entry (if any) matched.
 */
export class TokenVerifier {
  constructor(private readonly tokens: TokenSource) {}

  /** The principal `token` belongs to, or undefined. */
  principalOf(token: string): string | undefined {
    const presented = tokenDigest(token);
    let principal: string | undefined;
    for (const entry of this.tokens.content) {
      if (timingSafeEqual(entry.sha256, presented) && principal === undefined) principal = entry.principal;
    }
    return principal;
  }
}
