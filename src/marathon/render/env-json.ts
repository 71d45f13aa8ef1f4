import type { SecretEnv } from '../../scheduler/model/secrets';

/**
 * An `env` / `environment` object: the plain variables, then those backed by a secret as
 * `{"secret": name}` (Marathon's `EnvVarValueOrSecret`).
 */
export function envJson(env: Readonly<Record<string, string>>, secrets: SecretEnv): Record<string, string | { secret: string }> {
  const json: Record<string, string | { secret: string }> = { ...env };
  for (const [name, secret] of Object.entries(secrets)) json[name] = { secret };
  return json;
}
