import type { Constraint } from '../../src/scheduler/model/constraint';
import type { HealthCheckSpec } from '../../src/scheduler/model/health-check';
import { fromMilli, toMilli, type ScalarResources } from '../../src/scheduler/model/resources';
import type {
  AppSpec, BackoffPolicy, PodContainer, PodEndpoint, PodSpec, UnreachablePolicy, VersionInfo,
} from '../../src/scheduler/model/run-spec';

/**
 * Builders of the core's normalized run specs, straight from partial overrides (no converter).
 * Defaults are Marathon 1.11's (marathon-api-facts.md table L) except the resources, which are
 * small so that many instances fit a default offer. Every builder also writes a plausible wire
 * `definition` from the normalized fields, so `sameConfig` sees config changes (cmd, resources,
 * ports, constraints, roles, checks …) and ignores pure scaling changes.
 */

export const DEFAULT_VERSION = '2026-01-01T00:00:00.000Z';

/** Scalar amounts in natural units (cpus, MiB); undefined fields take the builder's default. */
export interface ScalarOverrides {
  readonly cpus?: number;
  readonly mem?: number;
  readonly disk?: number;
  readonly gpus?: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type AppOverrides = Partial<Omit<AppSpec, 'kind' | 'resources' | 'definition'>> & ScalarOverrides & {
  /** Extra or replacing wire fields, merged over the generated definition. */
  readonly definition?: Readonly<Record<string, unknown>>;
};

export function makeApp(o: AppOverrides = {}): AppSpec {
  const version = o.version ?? DEFAULT_VERSION;
  const versionInfo: VersionInfo = o.versionInfo ?? { lastScalingAt: version, lastConfigChangeAt: version };
  const resources = scalars({ cpus: o.cpus ?? 0.1, mem: o.mem ?? 32, disk: o.disk ?? 0, gpus: o.gpus ?? 0 });
  const spec: Mutable<Omit<AppSpec, 'definition'>> = {
    kind: 'app',
    id: o.id ?? '/app',
    version,
    versionInfo,
    instances: o.instances ?? 1,
    role: o.role ?? '*',
    acceptedResourceRoles: o.acceptedResourceRoles ?? [],
    constraints: o.constraints ?? [],
    backoff: o.backoff ?? { initialMs: 1000, factor: 1.15, maxMs: 300_000 },
    upgrade: o.upgrade ?? { minimumHealthCapacity: 1, maximumOverCapacity: 1 },
    unreachable: o.unreachable ?? { kind: 'enabled', inactiveAfterMs: 0, expungeAfterMs: 0 },
    killSelection: o.killSelection ?? 'YOUNGEST_FIRST',
    labels: o.labels ?? {},
    resident: o.resident ?? false,
    ...(o.persistentVolumes === undefined ? {} : { persistentVolumes: o.persistentVolumes }),
    resources,
    hostPorts: o.hostPorts ?? [],
    requirePorts: o.requirePorts ?? false,
    healthChecks: o.healthChecks ?? [],
    killGracePeriodMs: o.killGracePeriodMs ?? 3000,
    env: o.env ?? {},
  };
  if (o.cmd !== undefined || !('cmd' in o)) spec.cmd = o.cmd ?? 'sleep 1000';
  if (o.args !== undefined) spec.args = o.args;
  if (o.readinessChecks !== undefined) spec.readinessChecks = o.readinessChecks;
  const definition: Record<string, unknown> = {
    id: spec.id,
    cmd: spec.cmd ?? null,
    args: spec.args ?? null,
    instances: spec.instances,
    cpus: fromMilli(resources.cpusMilli),
    mem: fromMilli(resources.memMilli),
    disk: fromMilli(resources.diskMilli),
    gpus: resources.gpus,
    portDefinitions: spec.hostPorts.map((port, i) => ({ port, protocol: 'tcp', name: `port${i}` })),
    requirePorts: spec.requirePorts,
    constraints: spec.constraints.map(constraintWire),
    role: spec.role,
    ...(spec.acceptedResourceRoles.length > 0 ? { acceptedResourceRoles: spec.acceptedResourceRoles } : {}),
    ...backoffWire(spec.backoff, 'app'),
    upgradeStrategy: spec.upgrade,
    unreachableStrategy: unreachableWire(spec.unreachable),
    killSelection: spec.killSelection,
    healthChecks: spec.healthChecks.map((c) => c.wire),
    taskKillGracePeriodSeconds: spec.killGracePeriodMs / 1000,
    labels: spec.labels,
    env: spec.env,
    version,
    versionInfo,
    ...o.definition,
  };
  return { ...spec, definition };
}

export type ContainerOverrides = Partial<Omit<PodContainer, 'resources'>> & ScalarOverrides;

export function makeContainer(o: ContainerOverrides = {}): PodContainer {
  const c: Mutable<PodContainer> = {
    name: o.name ?? 'main',
    resources: scalars({ cpus: o.cpus ?? 0.1, mem: o.mem ?? 32, disk: o.disk ?? 0, gpus: o.gpus ?? 0 }),
    endpoints: o.endpoints ?? [],
    env: o.env ?? {},
  };
  if (o.command !== undefined || !('command' in o)) c.command = o.command ?? 'sleep 1000';
  if (o.healthCheck !== undefined) c.healthCheck = o.healthCheck;
  if (o.killGracePeriodMs !== undefined) c.killGracePeriodMs = o.killGracePeriodMs;
  return c;
}

export function makeEndpoint(o: Partial<PodEndpoint> & { readonly name: string }): PodEndpoint {
  const e: Mutable<PodEndpoint> = { name: o.name, protocol: o.protocol ?? ['tcp'] };
  if (o.hostPort !== undefined) e.hostPort = o.hostPort;
  if (o.containerPort !== undefined) e.containerPort = o.containerPort;
  return e;
}

export type PodOverrides = Partial<Omit<PodSpec, 'kind' | 'containers' | 'executorResources' | 'definition'>> & {
  /** Containers, as built containers or overrides for {@link makeContainer}. */
  readonly containers?: readonly (PodContainer | ContainerOverrides)[];
  /** Executor overhead in natural units (defaults: 0.1 cpus, 32 MiB, 10 MiB disk). */
  readonly executorResources?: ScalarOverrides;
  readonly definition?: Readonly<Record<string, unknown>>;
};

export function makePod(o: PodOverrides = {}): PodSpec {
  const version = o.version ?? DEFAULT_VERSION;
  const versionInfo: VersionInfo = o.versionInfo ?? { lastScalingAt: version, lastConfigChangeAt: version };
  const containers = (o.containers ?? [{}]).map((c) => (isContainer(c) ? c : makeContainer(c)));
  const ex = o.executorResources ?? {};
  const executorResources = scalars({ cpus: ex.cpus ?? 0.1, mem: ex.mem ?? 32, disk: ex.disk ?? 10, gpus: ex.gpus ?? 0 });
  const spec: Omit<PodSpec, 'definition'> = {
    kind: 'pod',
    id: o.id ?? '/pod',
    version,
    versionInfo,
    instances: o.instances ?? 1,
    role: o.role ?? '*',
    acceptedResourceRoles: o.acceptedResourceRoles ?? [],
    constraints: o.constraints ?? [],
    backoff: o.backoff ?? { initialMs: 1000, factor: 1.15, maxMs: 3_600_000 },
    upgrade: o.upgrade ?? { minimumHealthCapacity: 1, maximumOverCapacity: 1 },
    unreachable: o.unreachable ?? { kind: 'enabled', inactiveAfterMs: 900_000, expungeAfterMs: 604_800_000 },
    killSelection: o.killSelection ?? 'YOUNGEST_FIRST',
    labels: o.labels ?? {},
    resident: o.resident ?? false,
    containers,
    executorResources,
    networkMode: o.networkMode ?? 'host',
  };
  const definition: Record<string, unknown> = {
    id: spec.id,
    containers: containers.map(containerWire),
    scaling: { kind: 'fixed', instances: spec.instances },
    scheduling: {
      backoff: backoffWire(spec.backoff, 'pod'),
      upgrade: spec.upgrade,
      placement: {
        constraints: spec.constraints.map(constraintWire),
        acceptedResourceRoles: spec.acceptedResourceRoles,
      },
      killSelection: spec.killSelection,
      unreachableStrategy: unreachableWire(spec.unreachable),
    },
    executorResources: { cpus: fromMilli(executorResources.cpusMilli), mem: fromMilli(executorResources.memMilli), disk: fromMilli(executorResources.diskMilli) },
    networks: [{ mode: spec.networkMode }],
    role: spec.role,
    labels: spec.labels,
    version,
    ...o.definition,
  };
  return { ...spec, definition };
}

export type HealthCheckOverrides = Partial<Omit<HealthCheckSpec, 'wire'>> & { readonly wire?: Readonly<Record<string, unknown>> };

/**
 * A health check with Marathon's defaults (HTTP, grace 300 s, interval 60 s, timeout 20 s,
 * maxConsecutiveFailures 3, portIndex 0, path `/`); `wire` is written from the fields.
 */
export function makeHealthCheck(o: HealthCheckOverrides = {}): HealthCheckSpec {
  const protocol = o.protocol ?? 'HTTP';
  const c: Mutable<Omit<HealthCheckSpec, 'wire'>> = {
    protocol,
    gracePeriodMs: o.gracePeriodMs ?? 300_000,
    intervalMs: o.intervalMs ?? 60_000,
    timeoutMs: o.timeoutMs ?? 20_000,
    maxConsecutiveFailures: o.maxConsecutiveFailures ?? 3,
    delayMs: o.delayMs ?? 15_000,
    path: o.path ?? '/',
    ignoreHttp1xx: o.ignoreHttp1xx ?? false,
  };
  if (o.port !== undefined) c.port = o.port;
  else if (o.endpoint === undefined && protocol !== 'COMMAND') c.portIndex = o.portIndex ?? 0;
  if (o.endpoint !== undefined) c.endpoint = o.endpoint;
  if (o.command !== undefined) c.command = o.command;
  const wire: Record<string, unknown> = {
    protocol,
    gracePeriodSeconds: c.gracePeriodMs / 1000,
    intervalSeconds: c.intervalMs / 1000,
    timeoutSeconds: c.timeoutMs / 1000,
    maxConsecutiveFailures: c.maxConsecutiveFailures,
    delaySeconds: c.delayMs / 1000,
    ipProtocol: 'IPv4',
    ...(c.portIndex !== undefined ? { portIndex: c.portIndex } : {}),
    ...(c.port !== undefined ? { port: c.port } : {}),
    ...(protocol === 'HTTP' || protocol === 'HTTPS' || protocol === 'MESOS_HTTP' || protocol === 'MESOS_HTTPS' ? { path: c.path } : {}),
    ...(protocol === 'HTTP' || protocol === 'HTTPS' ? { ignoreHttp1xx: c.ignoreHttp1xx } : {}),
    ...(c.command !== undefined ? { command: { value: c.command } } : {}),
    ...o.wire,
  };
  return { ...c, wire };
}

/** `{ cpus: 0.5, mem: 64 }` → milli-units, as the converter would produce them. */
export function scalars(o: ScalarOverrides): ScalarResources {
  return { cpusMilli: toMilli(o.cpus ?? 0), memMilli: toMilli(o.mem ?? 0), diskMilli: toMilli(o.disk ?? 0), gpus: o.gpus ?? 0 };
}

/** `['hostname', 'UNIQUE']` → Constraint. */
export function constraint(field: string, operator: Constraint['operator'], value?: string): Constraint {
  return value === undefined ? { field, operator } : { field, operator, value };
}

/** A config version stamp `n` seconds after {@link DEFAULT_VERSION}. */
export function versionAt(seconds: number): string {
  return new Date(Date.parse(DEFAULT_VERSION) + seconds * 1000).toISOString();
}

function isContainer(c: PodContainer | ContainerOverrides): c is PodContainer {
  const r = (c as PodContainer).resources as unknown;
  return typeof r === 'object' && r !== null && 'cpusMilli' in r;
}

function constraintWire(c: Constraint): string[] {
  return c.value === undefined ? [c.field, c.operator] : [c.field, c.operator, c.value];
}

function backoffWire(b: BackoffPolicy, kind: 'app' | 'pod'): Record<string, number> {
  return kind === 'app'
    ? { backoffSeconds: b.initialMs / 1000, backoffFactor: b.factor, maxLaunchDelaySeconds: b.maxMs / 1000 }
    : { backoff: b.initialMs / 1000, backoffFactor: b.factor, maxLaunchDelay: b.maxMs / 1000 };
}

function unreachableWire(u: UnreachablePolicy): unknown {
  return u.kind === 'disabled' ? 'disabled' : { inactiveAfterSeconds: u.inactiveAfterMs / 1000, expungeAfterSeconds: u.expungeAfterMs / 1000 };
}

function containerWire(c: PodContainer): Record<string, unknown> {
  return {
    name: c.name,
    resources: { cpus: fromMilli(c.resources.cpusMilli), mem: fromMilli(c.resources.memMilli), disk: fromMilli(c.resources.diskMilli), gpus: c.resources.gpus },
    endpoints: c.endpoints.map((e) => ({ ...e })),
    ...(c.command !== undefined ? { exec: { command: { shell: c.command } } } : {}),
    ...(c.healthCheck !== undefined ? { healthCheck: c.healthCheck.wire } : {}),
    ...(c.killGracePeriodMs !== undefined ? { lifecycle: { killGracePeriodSeconds: c.killGracePeriodMs / 1000 } } : {}),
    environment: c.env,
  };
}

