import { isIP } from 'node:net';
import { authConfigured } from '../api/auth/auth-options';
import type { PacerConfig } from './config';

/**
 * What start-up warns about (one log record each, at `warn`: main.ts): an API that listens beyond this
 * host with no credentials configured — open to anyone who reaches it, as Marathon is without
 * `--http_credentials` — and credentials that would cross the network in clear text over HTTP.
 */
export function exposureWarnings(config: PacerConfig): string[] {
  if (isLoopback(config.address)) return [];
  const auth = authConfigured({
    httpCredentials: config.httpCredentials, credentialsFile: config.httpCredentialsFile, tokensFile: config.httpTokensFile,
    realm: config.httpRealm, openPaths: config.httpAuthOpenPaths,
  });
  if (!auth) {
    return [`the API listens on ${config.address} without authentication: anyone who reaches it can create, kill and delete everything (set --http_credentials, --http_credentials_file or --http_tokens_file)`];
  }
  if (!config.disableHttp) {
    return [`credentials cross the network in clear text over HTTP on ${config.address}:${config.port} (serve HTTPS only: --ssl_cert, --ssl_key, --disable_http)`];
  }
  return [];
}

/** 127.0.0.0/8, ::1 and `localhost`: addresses only this host reaches. */
export function isLoopback(address: string): boolean {
  const host = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}
