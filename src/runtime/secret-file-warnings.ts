import { statSync } from 'node:fs';
import type { PacerConfig } from './config';

/** The mode bits of a file (`fs.statSync(path).mode`), or undefined when it cannot be read. */
export type ModeOf = (path: string) => number | undefined;

function statMode(path: string): number | undefined {
  try {
    return statSync(path).mode;
  } catch {
    return undefined;
  }
}

/**
 * Start-up warnings (main.ts, at `warn`) for files holding secrets that other users of the host may
 * read: `--ssl_key` (the TLS private key), `--http_tokens_file` (tokens, possibly in clear),
 * `--http_credentials_file` (scrypt hashes, open to offline guessing) and
 * `--mesos_authentication_secret_file` — any of the group or other permission bits set, as ssh
 * refuses such a key. pacer warns instead of refusing: mounted secrets (a Kubernetes Secret
 * volume) are often 0644 in a container where pacer is the only user. A file that cannot be
 * read is left to the code that reads it (which stops start-up naming it).
 */
export function secretFileWarnings(config: PacerConfig, modeOf: ModeOf = statMode): string[] {
  const files: ReadonlyArray<readonly [string, string | undefined]> = [
    ['--ssl_key', config.sslKey],
    ['--http_tokens_file', config.httpTokensFile],
    ['--http_credentials_file', config.httpCredentialsFile],
    ['--mesos_authentication_secret_file', config.mesosAuthenticationSecretFile],
  ];
  const out: string[] = [];
  for (const [flag, path] of files) {
    if (path === undefined) continue;
    const mode = modeOf(path);
    if (mode === undefined || (mode & 0o077) === 0) continue;
    out.push(`${flag} ${path} may be read by other users of this host (mode ${(mode & 0o777).toString(8).padStart(4, '0')}): chmod 600 it`);
  }
  return out;
}
