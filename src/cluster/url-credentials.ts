/**
 * What stands in for hidden credentials: Marathon's mask (`/v2/info` shows a ZooKeeper or master
 * URL with credentials as `zk://xxxxxxxx@host/path`).
 */
export const CREDENTIALS_MASK = 'xxxxxxxx';

/**
 * `text` with the credentials of every URL in it hidden: whatever sits between `scheme://` and the
 * last `@` of that word becomes {@link CREDENTIALS_MASK} (a password may hold `@` or `/`; an `@`
 * in a path hides a little more than needed, never less). The one rule for every place a
 * credential-bearing URL (`--master`, `--zk`) can be shown: errors, log lines, `/v2/info`.
 */
export function redactCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)\S*@/gi, `$1${CREDENTIALS_MASK}@`);
}

/**
 * A value given for a URL option, as an error may echo it: {@link redactCredentials}, and, when it
 * has no `scheme://` (a mistyped `user:pass@host:5050`), whatever precedes the last `@` of its
 * first word is hidden too.
 */
export function redactUrlValue(value: string): string {
  return value.includes('://') ? redactCredentials(value) : value.replace(/^\S*@/, `${CREDENTIALS_MASK}@`);
}
