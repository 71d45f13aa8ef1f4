import { readFileSync } from 'node:fs';
import type { PacerConfig } from './config';

/** What the Mesos driver is given for framework authentication. */
export interface MesosAuthentication {
  /** FrameworkInfo.principal (Marathon sets it whenever the flag is given, `MarathonSchedulerDriver.scala`). */
  readonly principal?: string;
  /** HTTP basic credentials for every request to the master, when a secret file is given. */
  readonly credentials?: { readonly principal: string; readonly secret: string };
}

/**
 * `--mesos_authentication_principal` and `--mesos_authentication_secret_file` (Marathon's flags,
 * `MarathonConf.scala`). Marathon reads the secret file's bytes as they are; pacer drops one
 * trailing newline, so that `echo secret > file` works (a secret that really ends in a newline
 * needs two). The secret is never logged. Throws naming the file when it cannot be read or is empty.
 */
export function mesosAuthentication(config: PacerConfig): MesosAuthentication {
  const principal = config.mesosAuthenticationPrincipal;
  const file = config.mesosAuthenticationSecretFile;
  if (principal === undefined) return {};
  if (file === undefined) return { principal };
  let secret: string;
  try {
    secret = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } catch (err) {
    throw new Error(`--mesos_authentication_secret_file ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (secret === '') throw new Error(`--mesos_authentication_secret_file ${file} is empty`);
  return { principal, credentials: { principal, secret } };
}
