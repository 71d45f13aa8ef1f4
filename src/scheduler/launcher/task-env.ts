import type { AppSpec } from '../model/app';
import { networkModeOf } from '../model/networks';
import type { PodContainer, PodSpec } from '../model/pod';
import { fromMilli, type ExactScalars, type ScalarResources } from '../model/resources';
import { javaDouble } from '../kernel/java-double';

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
 * An app task's environment as Marathon gives it (Marathon's `EnvironmentHelper`): `HOST`, the
 * port variables ({@link portVariables}), `MARATHON_APP_ID`, `MARATHON_APP_VERSION`,
 * `MARATHON_APP_RESOURCE_CPUS|MEM|DISK|GPUS`, `MARATHON_APP_LABELS` (label names, space separated)
 * and `MARATHON_APP_LABEL_<NAME>`; the app's own plain `env` over them (the user may override
 * Marathon's variables). Secret-backed variables are not resolved (pacer has no secret store).
 * Names are upper-cased with every character outside `[A-Z0-9_]` replaced by `_`.
 */
export function appTaskEnv(app: AppSpec, facts: EnvFacts): Record<string, string> {
  const vars = appVarsAndEnv(app, facts.resources);
  if (vars.ports.length === 0) {
    // Only HOST comes before the app's variables: copy the app's template (one object shape, a
    // fast clone) and set HOST unless the app's own env overrides it (then it keeps that value).
    const env = { ...vars.template };
    if (!vars.setsHost) env.HOST = facts.hostname;
    return env;
  }
  const env: Record<string, string> = { HOST: facts.hostname };
  portVariables(vars.ports, facts, env);
  // The app's variables over the task's, in place: a key already set keeps its place and takes the
  // app's value, a new one goes last — what spreading both into a new object gives, one copy fewer
  // (but for a variable named `__proto__`, which assignment would not define: then spread).
  return vars.definesProto ? { ...env, ...vars.vars } : Object.assign(env, vars.vars);
}

/**
 * Sets a task's port variables in `env` (in this order), as Marathon's `EnvironmentHelper.portsEnv` makes them from
 * the declared ports (the port mappings' container ports when the app has mappings, else the port
 * definitions' ports, service ports assigned) and the task's host ports:
 * - `PORT<i>` for every declared port `i`: its host port; without one (a mapping without
 *   `hostPort`) its container port, or for container port 0 a port picked for the task in
 *   1025–65535 that no other port of the task uses;
 * - `PORT` (the first of them) and `PORTS` over the host ports, then the picked ports: a fixed
 *   container port is in neither, and `PORTS` is set, empty if need be;
 * - `PORT_<n>` for each declared port `n` other than 0 (the value of its `PORT<i>`), and for a
 *   declared 0 `PORT_<v>` = `v`, its own value;
 * - `PORT_<NAME>` for each named port that has a host port (Marathon sets none for a mapping
 *   without one).
 * Marathon picks at random; pacer from the task id, so a task's environment is the same whenever
 * it is resolved.
 */
function portVariables(ports: readonly DeclaredPort[], facts: EnvFacts, env: Record<string, string>): void {
  const hostPorts = facts.hostPorts;
  const values: number[] = [];
  const assigned: number[] = [];
  const picked: number[] = [];
  let hostIndex = 0;
  let taken: Set<number> | undefined;
  for (let i = 0; i < ports.length; i++) {
    const declared = ports[i];
    if (declared.hasHostPort) {
      const port = hostPorts[hostIndex++];
      values.push(port);
      if (port !== undefined) assigned.push(port);
    } else if (declared.requested === 0) {
      taken ??= new Set<number>([...hostPorts, ...ports.map((d) => d.requested)]);
      const port = pickPort(facts.taskId, i, taken);
      values.push(port);
      picked.push(port);
    } else {
      values.push(declared.requested);
    }
  }
  for (let i = 0; i < values.length; i++) if (values[i] !== undefined) env[portVar(i)] = String(values[i]);
  const all = picked.length === 0 ? assigned : assigned.concat(picked);
  if (all.length > 0) env.PORT = String(all[0]);
  env.PORTS = all.join(',');
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value !== undefined) env[ports[i].requestedVar ?? `PORT_${value}`] = String(value);
  }
  for (let i = 0; i < values.length; i++) {
    const nameVar = ports[i].nameVar;
    if (nameVar !== undefined && ports[i].hasHostPort && values[i] !== undefined) env[nameVar] = String(values[i]);
  }
}

/** A port in 1025–65535 that `taken` does not hold, from the task id and the port's index; added to `taken`. */
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

/**
 * An app's declared ports as its tasks' port variables see them: its port mappings (container
 * and bridge networking) or its port definitions (host networking), in order.
 */
function declaredPorts(app: AppSpec): DeclaredPort[] {
  const mappings = app.container?.portMappings ?? [];
  if (mappings.length > 0 && networkModeOf(app.networks) !== 'host') {
    return mappings.map((m) => declaredPort(m.containerPort, m.hostPort !== undefined, m.name));
  }
  return app.portDefinitions.map((d) => declaredPort(d.port, true, d.name));
}

function declaredPort(requested: number, hasHostPort: boolean, name: string | undefined): DeclaredPort {
  const named = nonEmpty(name);
  return {
    requested, hasHostPort,
    requestedVar: requested === 0 ? undefined : `PORT_${requested}`,
    nameVar: named === undefined ? undefined : `PORT_${envName(named)}`,
  };
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
  /** The app's declared ports ({@link declaredPorts}); none: the task has no port variables. */
  readonly ports: readonly DeclaredPort[];
}

/** A declared port of an app: what its tasks' port variables are made of ({@link portVariables}). */
interface DeclaredPort {
  /** The container port of a mapping, else the port of a port definition (0: none asked for). */
  readonly requested: number;
  /** Whether the task has a host port for it (always under host networking). */
  readonly hasHostPort: boolean;
  /** `PORT_<requested>`, unless `requested` is 0. */
  readonly requestedVar: string | undefined;
  /** `PORT_<NAME>`, when the port has a name. */
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
  // The app's own resources as the client wrote them (model/resources.ts ExactScalars), others as the task has them.
  const exact = resources === app.resources ? app.exactResources : undefined;
  const vars = { ...runSpecVars(app), ...resourceVars('MARATHON_APP_RESOURCE', resources, exact), ...app.env };
  const computed: AppVars = {
    resources, vars, template: { HOST: '', ...vars }, setsHost: Object.prototype.hasOwnProperty.call(vars, 'HOST'),
    definesProto: Object.prototype.hasOwnProperty.call(vars, '__proto__'),
    ports: declaredPorts(app),
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
  return { ...env, ...runSpecVars(pod), ...resourceVars('MARATHON_CONTAINER_RESOURCE', facts.resources, facts.resources === container.resources ? container.exactResources : undefined), ...pod.env, ...container.env };
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

function resourceVars(prefix: string, r: ScalarResources, exact: ExactScalars | undefined): Record<string, string> {
  return {
    [`${prefix}_CPUS`]: javaDouble(exact?.cpus ?? fromMilli(r.cpusMilli)),
    [`${prefix}_MEM`]: javaDouble(exact?.mem ?? fromMilli(r.memMilli)),
    [`${prefix}_DISK`]: javaDouble(exact?.disk ?? fromMilli(r.diskMilli)),
    [`${prefix}_GPUS`]: String(r.gpus),
  };
}


function nonEmpty(name: string | undefined): string | undefined {
  return name === undefined || name === '' ? undefined : name;
}
