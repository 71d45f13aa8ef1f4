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
}

/** Marathon's `--http_realm` default (`HttpConf.scala` httpCredentialsRealm). */
export const DEFAULT_REALM = 'Mesosphere';

/** Whether any credential source is configured, i.e. whether the API requires authentication. */
export function authConfigured(options: AuthOptions): boolean {
  return options.httpCredentials !== undefined || options.credentialsFile !== undefined || options.tokensFile !== undefined;
}
