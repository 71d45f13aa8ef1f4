import type { TaskLaunch } from '../../scheduler/model/launch';
import { fromMilli, type ScalarResources } from '../../scheduler/model/resources';
import type { AppSpec, PodSpec } from '../../scheduler/model/run-spec';

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The environment of a task process, as Marathon and the Mesos executor give it. Precedence,
 * lowest first: `PATH`, `HOME`, `LANG`, `LC_ALL`, `TZ`, `TMPDIR` from pacer's own environment
 * (only these: pacer's configuration is none of the task's business); Marathon's task
 * variables; the definition's own `env` / `environment` (the user may override Marathon's
 * variables); the executor's `MESOS_TASK_ID` and `MESOS_SANDBOX`, which nothing overrides.
 *
 * Apps: `HOST`, `PORT0..n`, `PORT` (= PORT0), `PORTS` (comma list), `PORT_<NAME>` for named port
 * definitions / mappings, `MARATHON_APP_ID`, `MARATHON_APP_VERSION`,
 * `MARATHON_APP_RESOURCE_CPUS|MEM|DISK|GPUS`, `MARATHON_APP_LABELS` (label names, space separated)
 * and `MARATHON_APP_LABEL_<NAME>`. `MARATHON_APP_DOCKER_IMAGE` never appears: tasks with an
 * image are refused before they get here.
 * Pods: `HOST`, `ENDPOINT_<NAME>` for every endpoint of every container of the instance (they
 * share the instance's network), `MARATHON_APP_ID`, `MARATHON_APP_VERSION`,
 * `MARATHON_CONTAINER_ID`, `MARATHON_CONTAINER_RESOURCE_CPUS|MEM|DISK|GPUS` and the label variables.
 * Names are upper-cased with every character outside `[A-Z0-9_]` replaced by `_`.
 */
export function taskEnv(launch: TaskLaunch, group: readonly TaskLaunch[], sandbox: string): Record<string, string> {
  return {
    ...hostBasics(),
    ...marathonTaskEnv(launch, group),
    MESOS_TASK_ID: launch.taskId,
    MESOS_SANDBOX: sandbox,
  };
}

/**
 * Marathon's task variables with the definition's own `env` / `environment` over them: the part
 * of `taskEnv` both clusters send (the Mesos cluster leaves the host basics and the executor's
 * variables to the agent), shared so that the two cannot drift.
 */
export function marathonTaskEnv(launch: TaskLaunch, group: readonly TaskLaunch[]): Record<string, string> {
  const spec = launch.spec;
  const marathon = spec.kind === 'app' ? appVars(launch, spec) : podVars(launch, spec, group);
  const own = spec.kind === 'app' ? spec.env : (spec.containers.find((c) => c.name === launch.containerName)?.env ?? {});
  return { ...marathon, ...own };
}

/** The few variables of pacer's own environment a task inherits, so that commands behave as on the host. */
const HOST_BASICS = ['HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'] as const;

function hostBasics(): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? DEFAULT_PATH };
  for (const name of HOST_BASICS) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** `my-port.x` → `MY_PORT_X`. */
export function envName(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}

function appVars(launch: TaskLaunch, spec: AppSpec): Record<string, string> {
  const env: Record<string, string> = { HOST: launch.hostname };
  const ports = launch.hostPorts;
  ports.forEach((port, i) => (env[`PORT${i}`] = String(port)));
  if (ports.length > 0) {
    env.PORT = String(ports[0]);
    env.PORTS = ports.join(',');
  }
  portNames(spec).forEach((name, i) => {
    if (name !== undefined && ports[i] !== undefined) env[`PORT_${envName(name)}`] = String(ports[i]);
  });
  return { ...env, ...runSpecVars(spec), ...resourceVars('MARATHON_APP_RESOURCE', launch.resources) };
}

function podVars(launch: TaskLaunch, spec: PodSpec, group: readonly TaskLaunch[]): Record<string, string> {
  const env: Record<string, string> = { HOST: launch.hostname };
  for (const container of spec.containers) {
    const task = group.find((t) => t.containerName === container.name);
    let hostIndex = 0;
    for (const e of container.endpoints) {
      const port = e.hostPort !== undefined ? task?.hostPorts[hostIndex++] : e.containerPort;
      if (port !== undefined) env[`ENDPOINT_${envName(e.name)}`] = String(port);
    }
  }
  env.MARATHON_CONTAINER_ID = launch.containerName ?? '';
  return { ...env, ...runSpecVars(spec), ...resourceVars('MARATHON_CONTAINER_RESOURCE', launch.resources) };
}

function runSpecVars(spec: AppSpec | PodSpec): Record<string, string> {
  const env: Record<string, string> = { MARATHON_APP_ID: spec.id, MARATHON_APP_VERSION: spec.version };
  const labels = Object.entries(spec.labels);
  env.MARATHON_APP_LABELS = labels.map(([k]) => k).join(' ');
  for (const [k, v] of labels) env[`MARATHON_APP_LABEL_${envName(k)}`] = v;
  return env;
}

function resourceVars(prefix: string, r: ScalarResources): Record<string, string> {
  return {
    [`${prefix}_CPUS`]: decimal(fromMilli(r.cpusMilli)),
    [`${prefix}_MEM`]: decimal(fromMilli(r.memMilli)),
    [`${prefix}_DISK`]: decimal(fromMilli(r.diskMilli)),
    [`${prefix}_GPUS`]: String(r.gpus),
  };
}

/** Marathon writes the scalar resources as JVM doubles: `1.0`, `0.5`, `128.0`. */
function decimal(n: number): string {
  return Number.isInteger(n) ? n.toFixed(1) : String(n);
}

/**
 * Port names aligned with the task's host ports: `portDefinitions[i].name` (host networking) or
 * the names of the `container.portMappings` that have a host port (container networking).
 */
function portNames(spec: AppSpec): (string | undefined)[] {
  const d = spec.definition;
  if (Array.isArray(d.portDefinitions)) return d.portDefinitions.map((p) => nameOf(p));
  const container = d.container as { portMappings?: unknown } | null | undefined;
  const mappings = Array.isArray(container?.portMappings) ? container.portMappings : [];
  return mappings.filter((m) => hasHostPort(m)).map((m) => nameOf(m));
}

function nameOf(entry: unknown): string | undefined {
  const name = (entry as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

function hasHostPort(entry: unknown): boolean {
  const hostPort = (entry as { hostPort?: unknown } | null)?.hostPort;
  return typeof hostPort === 'number';
}
