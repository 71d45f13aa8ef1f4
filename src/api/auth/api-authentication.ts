import type { ScryptHash } from './password-hash';
import { BlockedLog } from './blocked-log';
import { authConfigured, type AuthOptions } from './auth-options';
import { BasicVerifier } from './basic-verifier';
import { DEFAULT_LOGIN_FAILURE_WINDOW_MS, DEFAULT_LOGIN_FAILURES, LoginGuard } from './login-guard';
import { DEFAULT_SCRYPT_RUNS, ScryptGate } from './scrypt-gate';
import { parseCredentialsFile } from './credentials-file';
import { parseHttpCredentials, type PlainCredential } from './http-credentials';
import { ReloadableFile } from './reloadable-file';
import { ApiAuthorization } from '../authz/api-authorization';
import { TokenVerifier } from './token-verifier';
import { parseTokensFile, type TokenEntry } from './tokens-file';

/** Where the authentication's lines go (component `auth` of pacer's log): the files' reloads, blocked addresses. */
export type AuthLog = (line: string, level?: 'warn') => void;

/** How often the credential files' metadata is polled for changes. */
export const DEFAULT_WATCH_INTERVAL_MS = 1000;

/**
 * The API's authentication, built once at start from the `--http_*` options: HTTP basic
 * (`--http_credentials` pairs and the credentials file) and bearer tokens (the tokens file).
 * The files are reloaded on `reload()` (SIGHUP) and when they change on disk (`watch`); the
 * `--http_credentials` pairs are fixed for the process, as Marathon's are. `open` returns
 * undefined when nothing is configured: the API is then open to whoever reaches it, as
 * Marathon is without `--http_credentials`. Failed logins are counted per client source by
 * `guard` (`--http_auth_failures` per `--http_auth_failure_window`; pacer's own, Marathon has
 * none; an address reaching the limit is one `warn` line, once per window, at most
 * MAX_NAMED_BLOCKED_SOURCES addresses named per window: blocked-log.ts) and scrypt runs are
 * bounded by the basic verifier's gate (`--http_auth_scrypt_runs`).
 */
export class ApiAuthentication {
  /** Basic credentials, when any are configured. */
  readonly basic: BasicVerifier | undefined;
  /** Bearer tokens, when a tokens file is configured. */
  readonly tokens: TokenVerifier | undefined;
  readonly realm: string;
  readonly openPaths: ReadonlySet<string>;
  /** What each principal may do (`--authorization_file`); undefined = everything, as without it. */
  readonly authorization: ApiAuthorization | undefined;
  /** Failed logins per client source; undefined with `--http_auth_failures 0` (not limited). */
  readonly guard: LoginGuard | undefined;
  /** The guard's numbers, for its 429's message. */
  readonly loginLimit: { readonly failures: number; readonly windowMs: number };
  private readonly files: readonly { reload(): unknown; watch(intervalMs: number): void; close(): void }[];

  private constructor(options: AuthOptions, files: { credentials?: ReloadableFile<Map<string, ScryptHash>>; tokens?: ReloadableFile<TokenEntry[]>; authorization?: ApiAuthorization }, plain: readonly PlainCredential[], log: AuthLog) {
    this.realm = options.realm;
    this.openPaths = new Set(options.openPaths);
    const gate = new ScryptGate(options.scryptRuns ?? DEFAULT_SCRYPT_RUNS);
    this.basic = plain.length > 0 || files.credentials !== undefined ? new BasicVerifier(plain, files.credentials, gate) : undefined;
    this.loginLimit = { failures: options.loginFailures ?? DEFAULT_LOGIN_FAILURES, windowMs: options.loginFailureWindowMs ?? DEFAULT_LOGIN_FAILURE_WINDOW_MS };
    const nowMs = options.nowMs ?? (() => performance.now());
    const { failures, windowMs } = this.loginLimit;
    // One warn line per blocked address and window, at most MAX_NAMED_BLOCKED_SOURCES addresses
    // named per window (blocked-log.ts; the 429s themselves are only in the request log). It names
    // the address and the limit; never a user name or a credential.
    const blockedLog = failures === 0 ? undefined : new BlockedLog({ failures, windowMs, nowMs, warn: (line) => log(line, 'warn') });
    this.guard = blockedLog === undefined ? undefined : new LoginGuard({ failures, windowMs, nowMs, onBlocked: (source, leftMs) => blockedLog.blocked(source, leftMs) });
    this.tokens = files.tokens === undefined ? undefined : new TokenVerifier(files.tokens);
    this.authorization = files.authorization;
    this.files = [files.credentials, files.tokens, files.authorization].filter((f) => f !== undefined);
  }

  /**
   * Reads the configuration; undefined when no credential source is configured. Throws an Error
   * naming the flag or file when one cannot be used (pacer then refuses to start).
   */
  static open(options: AuthOptions, log: AuthLog): ApiAuthentication | undefined {
    if (!authConfigured(options)) {
      if (options.authorizationFile !== undefined) throw new Error('--authorization_file needs authenticated callers: set --http_credentials, --http_credentials_file or --http_tokens_file');
      return undefined;
    }
    const plain = options.httpCredentials === undefined ? [] : parseHttpCredentials(options.httpCredentials);
    if (!Array.isArray(plain)) throw new Error(`--http_credentials: ${plain.error}`);
    const credentials = options.credentialsFile === undefined ? undefined : new ReloadableFile({
      path: options.credentialsFile, what: 'credentials file', parse: parseCredentialsFile, count: (users) => users.size, log,
    });
    const tokens = options.tokensFile === undefined ? undefined : new ReloadableFile({
      path: options.tokensFile, what: 'tokens file', parse: parseTokensFile, count: (entries) => entries.length, log,
    });
    const authorization = options.authorizationFile === undefined ? undefined : new ApiAuthorization(options.authorizationFile, log);
    return new ApiAuthentication(options, { credentials, tokens, authorization }, plain, log);
  }

  /** Re-reads the credentials, tokens and authorization files (SIGHUP); a file that fails keeps its previous content. */
  reload(): void {
    for (const file of this.files) file.reload();
  }

  /** Reloads a file whenever it changes on disk (polled every `intervalMs`). */
  watch(intervalMs: number = DEFAULT_WATCH_INTERVAL_MS): void {
    for (const file of this.files) file.watch(intervalMs);
  }

  /** Stops watching the files. */
  close(): void {
    for (const file of this.files) file.close();
  }

  /** The `WWW-Authenticate` challenges of a 401, in order: Basic (Marathon's), then Bearer. */
  challenges(): string[] {
    const realm = this.realm.replace(/["\\]/g, '\\$&');
    const out: string[] = [];
    if (this.basic !== undefined) out.push(`Basic realm="${realm}"`);
    if (this.tokens !== undefined) out.push(`Bearer realm="${realm}"`);
    return out;
  }
}
