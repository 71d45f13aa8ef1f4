/** One `user:password` pair of `--http_credentials`. */
export interface PlainCredential {
  readonly user: string;
  readonly password: string;
}

/**
 * Reads `--http_credentials`. Marathon takes one `user:password` pair (`HttpConf.scala`: "the
 * username must not contain ':'", `HttpModule.scala` createSecurityHandler); pacer also takes a
 * comma-separated list of pairs. The user ends at the first `:`, so a password may contain `:`;
 * a piece without `:` continues the previous password (`admin:pa,ss` is one pair). A password
 * that contains `,` followed later by `:` cannot be written here: use the credentials file.
 * Errors never quote the value: it holds passwords.
 */
export function parseHttpCredentials(value: string): PlainCredential[] | { error: string } {
  const pieces: string[] = [];
  for (const piece of value.split(',')) {
    if (pieces.length > 0 && !piece.includes(':')) pieces[pieces.length - 1] += `,${piece}`;
    else pieces.push(piece);
  }
  const credentials: PlainCredential[] = [];
  for (const [i, piece] of pieces.entries()) {
    const colon = piece.indexOf(':');
    const user = colon < 0 ? '' : piece.slice(0, colon).trim();
    const password = colon < 0 ? '' : piece.slice(colon + 1);
    if (user === '' || password === '') return { error: `pair ${i + 1}: expected user:password (a non-empty user without ':' and a non-empty password)` };
    if (credentials.some((c) => c.user === user)) return { error: `pair ${i + 1}: user ${JSON.stringify(user)} is given twice` };
    credentials.push({ user, password });
  }
  return credentials;
}
