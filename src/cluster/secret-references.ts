import type { TaskLaunch } from '../scheduler/model/launch';

/** An environment variable of a task whose value is a secret (`{"secret": "<name>"}`). */
export interface SecretEnvReference {
  /** The variable's name. */
  readonly variable: string;
  /** The name in the definition's `secrets`. */
  readonly secret: string;
  /** That secret's `source` (the secret store's path), when the definition declares it. */
  readonly source?: string;
}

/**
 * The secrets a task's definition refers to — never their values, which pacer never has: a
 * definition holds `secrets: {name: {source}}` and refers to them from environment variables
 * (`env` of apps, pod and container `environment`, as `{"secret": "<name>"}`) or secret volumes
 * (Marathon's `docs/docs/secrets.md`). The core's run specs keep only plain variables, so these
 * are read from the definition, in one place for both clusters: the local cluster refuses them
 * (it has no secret store), the Mesos translation sends them as `Secret` references.
 */
export function secretEnvReferences(launch: TaskLaunch): SecretEnvReference[] {
  const definition = launch.spec.definition;
  const declared = objectOf(definition.secrets) ?? {};
  const env = launch.spec.kind === 'app'
    ? objectOf(definition.env)
    : { ...objectOf(definition.environment), ...objectOf(containerOf(launch)?.environment) };
  const out: SecretEnvReference[] = [];
  for (const [variable, value] of Object.entries(env ?? {})) {
    const secret = stringOf(objectOf(value)?.secret);
    if (secret === undefined) continue;
    const source = stringOf(objectOf(declared[secret])?.source);
    out.push({ variable, secret, ...(source === undefined ? {} : { source }) });
  }
  return out;
}

/** Names of the secrets mounted as files by a task (secret volumes of an app's container or of a pod). */
export function secretVolumeReferences(launch: TaskLaunch): string[] {
  const definition = launch.spec.definition;
  const volumes = launch.spec.kind === 'app' ? objectOf(definition.container)?.volumes : definition.volumes;
  if (!Array.isArray(volumes)) return [];
  return volumes.map((v) => stringOf(objectOf(v)?.secret)).filter((s): s is string => s !== undefined);
}

function containerOf(launch: TaskLaunch): Readonly<Record<string, unknown>> | undefined {
  const containers = launch.spec.definition.containers;
  if (!Array.isArray(containers)) return undefined;
  return containers.map(objectOf).find((c) => c?.name === launch.containerName);
}

function objectOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
