/** How API callers authenticate (`--http_*` flags); nothing set = no authentication. */
export interface AuthOptions {
  /** `--http_credentials`: `user:password[,user2:password2]`. */
  readonly httpCredentials?: string;
  /** `--http_credentials_file`: `user:<scrypt PHC hash>` lines. */
  readonly credentialsFile?: string;
  /** `--http_tokens_file`: `principal:token` lines. */
  readonly tokensFile?: string;
  /** `--http_realm` (Marathon's default `Mesosphere`, `HttpConf.scala`). */
  readonly realm: string;
  /** `--http_auth_open_paths`: route paths served without credentials (default `/ping`). */
  readonly openPaths: readonly string[];
  /** `--authorization_file`: who may do what where (src/api/authz); needs a credential source. */
  readonly authorizationFile?: string;
  /** `--http_auth_failures`: failed logins a client source may make per window before 429 (0: not limited; default 10). */
  readonly loginFailures?: number;
  /** `--http_auth_failure_window`: ms those failures are counted in (default 60,000). */
  readonly loginFailureWindowMs?: number;
  /** `--http_auth_scrypt_runs`: scrypt verifications at once (default 1). */
  readonly scryptRuns?: number;
  /** The failure windows' clock, monotonic ms (default `performance.now`; tests pass their own). */
  readonly nowMs?: () => number;
}

/** Marathon's `--http_realm` default (`HttpConf.scala` httpCredentialsRealm). */
export const DEFAULT_REALM = 'Mesosphere';

/** Whether any credential source is configured, i.e. whether the API requires authentication. */
export function authConfigured(options: AuthOptions): boolean {
  return options.httpCredentials !== undefined || options.credentialsFile !== undefined || options.tokensFile !== undefined;
}
