import type { AppSpec } from '../model/app';
import { networkModeOf } from '../model/networks';
import type { PodContainer, PodSpec } from '../model/pod';
import { fromMilli, type ScalarResources } from '../model/resources';

/** The instance-level facts a task's environment names. */
export interface EnvFacts {
  /** The task's id: picks the ports of container-only mappings with container port 0 (see {@link containerNetworkPorts}). */
  readonly taskId: string;
  readonly hostname: string;
  /** This task's host ports, in the order of its ports. */
  readonly hostPorts: readonly number[];
  readonly resources: ScalarResources;
}

/**
 * An app task's environment as Marathon gives it (Marathon's `EnvironmentHelper`): `HOST`,
 * `PORT0..n`, `PORT` (= PORT0), `PORTS` (comma list), `PORT_<NAME>` for named port definitions /
 * mappings, `MARATHON_APP_ID`, `MARATHON_APP_VERSION`, `MARATHON_APP_RESOURCE_CPUS|MEM|DISK|GPUS`,
 * `MARATHON_APP_LABELS` (label names, space separated) and `MARATHON_APP_LABEL_<NAME>`; the app's
 * own plain `env` over them (the user may override Marathon's variables). Secret-backed variables
 * are not resolved (pacer has no secret store). Names are upper-cased with every character outside
 * `[A-Z0-9_]` replaced by `_`. On container networks the port variables follow the port mappings,
 * with or without host ports ({@link containerNetworkPorts}).
 */
export function appTaskEnv(app: AppSpec, facts: EnvFacts): Record<string, string> {
  const ports = facts.hostPorts;
  const vars = appVarsAndEnv(app, facts.resources);
  if (vars.mappings !== undefined) {
    const env: Record<string, string> = { HOST: facts.hostname, ...containerNetworkPorts(vars.mappings, facts) };
    return vars.definesProto ? { ...env, ...vars.vars } : Object.assign(env, vars.vars);
  }
  if (ports.length === 0) {
    // Only HOST comes before the app's variables: copy the app's template (one object shape, a
    // fast clone) and set HOST unless the app's own env overrides it (then it keeps that value).
    const env = { ...vars.template };
    if (!vars.setsHost) env.HOST = facts.hostname;
    return env;
  }
  const env: Record<string, string> = { HOST: facts.hostname };
  for (let i = 0; i < ports.length; i++) env[portVar(i)] = String(ports[i]);
  env.PORT = String(ports[0]);
  env.PORTS = ports.join(',');
  const named = vars.portVarNames;
  for (let i = 0; i < named.length; i++) {
    const name = named[i];
    if (name !== undefined && ports[i] !== undefined) env[name] = String(ports[i]);
  }
  // The app's variables over the task's, in place: a key already set keeps its place and takes the
  // app's value, a new one goes last — what spreading both into a new object gives, one copy fewer
  // (but for a variable named `__proto__`, which assignment would not define: then spread).
  return vars.definesProto ? { ...env, ...vars.vars } : Object.assign(env, vars.vars);
}

/**
 * The port variables of a task on a container network, as Marathon's `EnvironmentHelper.portsEnv`
 * gives them when the port mappings are the declared ports: `PORT<i>` for every mapping `i` (its
 * host port; without one its container port; for a container port 0 without a host port, a port
 * picked for the task), `PORT_<n>` for each mapping's container port `n` (0: the port `PORT<i>`
 * has), `PORT_<NAME>` for each named mapping (the value of its `PORT<i>`), `PORT` and `PORTS` over
 * the host ports and the picked ports only (a fixed container port is in neither; `PORTS` is set,
 * empty if need be, whenever the app has mappings). Marathon picks a port at random in
 * 1025–65535 that no other port of the task uses; pacer picks it from the task id, so a task's
 * environment is the same whenever it is resolved.
 */
function containerNetworkPorts(mappings: readonly EnvMapping[], facts: EnvFacts): Record<string, string> {
  const hostPorts = facts.hostPorts;
  const taken = new Set<number>(hostPorts);
  for (const m of mappings) taken.add(m.containerPort);
  const values: (number | undefined)[] = [];
  const assigned: number[] = [];
  const picked: number[] = [];
  let hostIndex = 0;
  for (let i = 0; i < mappings.length; i++) {
    const m = mappings[i];
    if (m.hasHostPort) {
      const port = hostPorts[hostIndex++];
      values.push(port);
      if (port !== undefined) assigned.push(port);
    } else if (m.containerPort === 0) {
      const port = pickPort(facts.taskId, i, taken);
      values.push(port);
      picked.push(port);
    } else {
      values.push(m.containerPort);
    }
  }
  const env: Record<string, string> = {};
  for (let i = 0; i < values.length; i++) if (values[i] !== undefined) env[portVar(i)] = String(values[i]);
  const all = assigned.concat(picked);
  if (all.length > 0) env.PORT = String(all[0]);
  env.PORTS = all.join(',');
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === undefined) continue;
    const requested = mappings[i].containerPort;
    env[`PORT_${requested === 0 ? value : requested}`] = String(value);
  }
  for (let i = 0; i < values.length; i++) {
    const name = mappings[i].nameVar;
    if (name !== undefined && values[i] !== undefined) env[name] = String(values[i]);
  }
  return env;
}

/** A port in 1025–65535 that `taken` does not hold, from the task id and the mapping's index; added to `taken`. */
function pickPort(taskId: string, index: number, taken: Set<number>): number {
  for (let attempt = 0; ; attempt++) {
    const port = 1025 + (fnv1a(`${taskId}#${index}#${attempt}`) % 64_511);
    if (!taken.has(port)) {
      taken.add(port);
      return port;
    }
  }
}

/** FNV-1a, 32 bits, of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The port mappings of an app on a container network that has any ({@link containerNetworkPorts}). */
function containerNetworkMappings(app: AppSpec): EnvMapping[] | undefined {
  const mappings = app.container?.portMappings ?? [];
  if (mappings.length === 0 || networkModeOf(app.networks) !== 'container') return undefined;
  return mappings.map((m) => {
    const name = nonEmpty(m.name);
    return { containerPort: m.containerPort, hasHostPort: m.hostPort !== undefined, nameVar: name === undefined ? undefined : `PORT_${envName(name)}` };
  });
}

/** `PORT0`, `PORT1`, …: the names of the first host ports' variables, made once. */
function portVar(i: number): string {
  return i < PORT_VARS.length ? PORT_VARS[i] : `PORT${i}`;
}

const PORT_VARS: readonly string[] = Array.from({ length: 16 }, (_, i) => `PORT${i}`);

/** An app's variables that do not depend on the task (see {@link appVarsAndEnv}). */
interface AppVars {
  readonly resources: ScalarResources;
  /** Id, version, labels, resources, then the app's own `env` over them. */
  readonly vars: Readonly<Record<string, string>>;
  /** `{ HOST, ...vars }`: the environment of a task without host ports, but for HOST's value. */
  readonly template: Readonly<Record<string, string>>;
  /** Whether the app's own `env` sets HOST. */
  readonly setsHost: boolean;
  /** Whether `vars` has a variable named `__proto__` (see {@link appTaskEnv}). */
  readonly definesProto: boolean;
  /** `PORT_<NAME>` of each host port that has a name, aligned with the task's host ports. */
  readonly portVarNames: readonly (string | undefined)[];
  /** On a container network, the app's port mappings (none: host or bridge networking, or no mappings). */
  readonly mappings: readonly EnvMapping[] | undefined;
}

/** What a port mapping of an app on a container network gives its tasks' port variables. */
interface EnvMapping {
  readonly containerPort: number;
  readonly hasHostPort: boolean;
  /** `PORT_<NAME>`, when the mapping has a name. */
  readonly nameVar: string | undefined;
}

/**
 * The variables of an app's tasks that depend on the app and its resources only: its id, version
 * and labels, the resources, then the app's own `env` over them — merged once per `AppSpec` object
 * (run specs are immutable) for the resources an app task has (the app's), and computed afresh for
 * any other. Spreading the merged object after the per-task variables gives the same keys, order
 * and values as spreading its three parts one after the other.
 */
function appVarsAndEnv(app: AppSpec, resources: ScalarResources): AppVars {
  const known = appVars.get(app);
  if (known !== undefined && known.resources === resources) return known;
  const vars = { ...runSpecVars(app), ...resourceVars('MARATHON_APP_RESOURCE', resources), ...app.env };
  const computed: AppVars = {
    resources, vars, template: { HOST: '', ...vars }, setsHost: Object.prototype.hasOwnProperty.call(vars, 'HOST'),
    definesProto: Object.prototype.hasOwnProperty.call(vars, '__proto__'),
    portVarNames: hostPortNames(app).map((name) => (name === undefined ? undefined : `PORT_${envName(name)}`)),
    mappings: containerNetworkMappings(app),
  };
  appVars.set(app, computed);
  return computed;
}

const appVars = new WeakMap<AppSpec, AppVars>();

/**
 * A pod container task's environment: `HOST`, `ENDPOINT_<NAME>` for every endpoint of every
 * container of the instance (they share the instance's network; `hostPortsOf` gives each
 * container's host ports), `MARATHON_APP_ID`, `MARATHON_APP_VERSION`, `MARATHON_CONTAINER_ID`,
 * `MARATHON_CONTAINER_RESOURCE_CPUS|MEM|DISK|GPUS` and the label variables; then the pod's plain
 * `environment`, then the container's own.
 */
export function podTaskEnv(
  pod: PodSpec, container: PodContainer, facts: EnvFacts, hostPortsOf: (containerName: string) => readonly number[] | undefined,
): Record<string, string> {
  const env: Record<string, string> = { HOST: facts.hostname };
  for (const c of pod.containers) {
    const hostPorts = hostPortsOf(c.name);
    let hostIndex = 0;
    for (const e of c.endpoints) {
      const port = e.hostPort !== undefined ? hostPorts?.[hostIndex++] : e.containerPort;
      if (port !== undefined) env[`ENDPOINT_${envName(e.name)}`] = String(port);
    }
  }
  env.MARATHON_CONTAINER_ID = container.name;
  return { ...env, ...runSpecVars(pod), ...resourceVars('MARATHON_CONTAINER_RESOURCE', facts.resources), ...pod.env, ...container.env };
}

/** `my-port.x` → `MY_PORT_X`. */
export function envName(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
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
 * Port names aligned with the task's host ports: the port definitions' names (host networking) or
 * the names of the port mappings that have a host port (container and bridge networking).
 */
function hostPortNames(app: AppSpec): (string | undefined)[] {
  if (app.portDefinitions.length > 0) return app.portDefinitions.map((d) => nonEmpty(d.name));
  return (app.container?.portMappings ?? []).filter((m) => m.hostPort !== undefined).map((m) => nonEmpty(m.name));
}

function nonEmpty(name: string | undefined): string | undefined {
  return name === undefined || name === '' ? undefined : name;
}
