import type { AppSpec } from '../../src/scheduler/model/app';
import type { Constraint } from '../../src/scheduler/model/constraint';
import type { HealthCheckSpec } from '../../src/scheduler/model/health-check';
import { networkModeOf } from '../../src/scheduler/model/networks';
import type { PodContainer, PodEndpoint, PodSpec } from '../../src/scheduler/model/pod';
import type { PortMapping } from '../../src/scheduler/model/ports';
import { toMilli, type ScalarResources } from '../../src/scheduler/model/resources';
import type { VersionInfo } from '../../src/scheduler/model/run-spec';

/**
 * Builders of the core's normalized run specs, straight from partial overrides (no converter).
 * Defaults are Marathon 1.11's (marathon-api-facts.md table L) except the resources, which are
 * small so that many instances fit a default offer. Every field of the model can be overridden;
 * the derived ones (`hostPorts`, `portDefinitions`, `networkMode`, `networks`) are kept consistent.
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

export type AppOverrides = Partial<Omit<AppSpec, 'kind' | 'resources'>> & ScalarOverrides;

/**
 * An app. Without `portDefinitions`, one definition per `hostPorts` entry (named `port<i>`, its port
 * the host port); without `hostPorts`, the ports of the given port definitions or mappings.
 */
export function makeApp(o: AppOverrides = {}): AppSpec {
  const version = o.version ?? DEFAULT_VERSION;
  const versionInfo: VersionInfo = o.versionInfo ?? { lastScalingAt: version, lastConfigChangeAt: version };
  const networks = o.networks ?? [{ mode: 'host', labels: {} }];
  const host = networkModeOf(networks) === 'host';
  const requirePorts = o.requirePorts ?? false;
  const portDefinitions = o.portDefinitions
    ?? (host ? (o.hostPorts ?? []).map((port, i) => ({ port, protocol: 'tcp', name: `port${i}`, labels: {} })) : []);
  const hostPorts = o.hostPorts ?? (host
    ? portDefinitions.map((d) => (requirePorts ? d.port : 0))
    : (o.container?.portMappings ?? []).flatMap((m) => (m.hostPort === undefined ? [] : [m.hostPort])));
  const spec: Mutable<AppSpec> = {
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
    env: o.env ?? {},
    envSecrets: o.envSecrets ?? {},
    secrets: o.secrets ?? {},
    fetch: o.fetch ?? [],
    executor: o.executor ?? '',
    resources: scalars({ cpus: o.cpus ?? 0.1, mem: o.mem ?? 32, disk: o.disk ?? 0, gpus: o.gpus ?? 0 }),
    networks,
    portDefinitions,
    requirePorts,
    hostPorts,
    healthChecks: o.healthChecks ?? [],
    killGracePeriodMs: 'killGracePeriodMs' in o ? o.killGracePeriodMs : 3000,
    dependencies: o.dependencies ?? [],
  };
  if (o.cmd !== undefined || !('cmd' in o)) spec.cmd = o.cmd ?? 'sleep 1000';
  if (o.args !== undefined) spec.args = o.args;
  if (o.readinessChecks !== undefined) spec.readinessChecks = o.readinessChecks;
  for (const key of ['container', 'user', 'tty', 'resourceLimits', 'executorResources', 'check', 'residency'] as const) {
    if (o[key] !== undefined) (spec as Record<string, unknown>)[key] = o[key];
  }
  if (spec.killGracePeriodMs === undefined) delete spec.killGracePeriodMs;
  return spec;
}

/** Pod container overrides; `command` is a shorthand for `exec: {command: {shell: command}}`. */
export type ContainerOverrides = Partial<Omit<PodContainer, 'resources'>> & ScalarOverrides & { readonly command?: string };

export function makeContainer(o: ContainerOverrides = {}): PodContainer {
  const c: Mutable<PodContainer> = {
    name: o.name ?? 'main',
    resources: scalars({ cpus: o.cpus ?? 0.1, mem: o.mem ?? 32, disk: o.disk ?? 0, gpus: o.gpus ?? 0 }),
    endpoints: o.endpoints ?? [],
    env: o.env ?? {},
    envSecrets: o.envSecrets ?? {},
    volumeMounts: o.volumeMounts ?? [],
    artifacts: o.artifacts ?? [],
    labels: o.labels ?? {},
  };
  if (o.exec !== undefined) c.exec = o.exec;
  else if (o.command !== undefined || !('command' in o)) c.exec = { command: { shell: o.command ?? 'sleep 1000' } };
  for (const key of ['healthCheck', 'killGracePeriodMs', 'image', 'user', 'check', 'resourceLimits', 'tty', 'linuxInfo'] as const) {
    if (o[key] !== undefined) (c as Record<string, unknown>)[key] = o[key];
  }
  return c;
}

export function makeEndpoint(o: Partial<PodEndpoint> & { readonly name: string }): PodEndpoint {
  const e: Mutable<PodEndpoint> = { name: o.name, protocol: o.protocol ?? ['tcp'], labels: o.labels ?? {}, networkNames: o.networkNames ?? [] };
  if (o.hostPort !== undefined) e.hostPort = o.hostPort;
  if (o.containerPort !== undefined) e.containerPort = o.containerPort;
  return e;
}

export type PodOverrides = Partial<Omit<PodSpec, 'kind' | 'containers' | 'executorResources'>> & {
  /** Containers, as built containers or overrides for {@link makeContainer}. */
  readonly containers?: readonly (PodContainer | ContainerOverrides)[];
  /** Executor overhead in natural units (defaults: 0.1 cpus, 32 MiB, 10 MiB disk). */
  readonly executorResources?: ScalarOverrides;
};

export function makePod(o: PodOverrides = {}): PodSpec {
  const version = o.version ?? DEFAULT_VERSION;
  const versionInfo: VersionInfo = o.versionInfo ?? { lastScalingAt: version, lastConfigChangeAt: version };
  const containers = (o.containers ?? [{}]).map((c) => (isContainer(c) ? c : makeContainer(c)));
  const ex = o.executorResources ?? {};
  const networkMode = o.networkMode ?? (o.networks !== undefined && networkModeOf(o.networks) !== 'host' ? 'container' : 'host');
  const spec: Mutable<PodSpec> = {
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
    executorResources: scalars({ cpus: ex.cpus ?? 0.1, mem: ex.mem ?? 32, disk: ex.disk ?? 10, gpus: ex.gpus ?? 0 }),
    networks: o.networks ?? [networkMode === 'host' ? { mode: 'host', labels: {} } : { mode: 'container', name: 'dcos', labels: {} }],
    networkMode,
    volumes: o.volumes ?? [],
    env: o.env ?? {},
    envSecrets: o.envSecrets ?? {},
    secrets: o.secrets ?? {},
  };
  for (const key of ['user', 'maxInstances', 'linuxInfo', 'legacySharedCgroups'] as const) {
    if (o[key] !== undefined) (spec as Record<string, unknown>)[key] = o[key];
  }
  return spec;
}

/** A port mapping (`container.portMappings[]`) with Marathon's defaults: container port 0, service port 0, `tcp`. */
export function makePortMapping(o: Partial<PortMapping> = {}): PortMapping {
  return { containerPort: 0, servicePort: 0, protocol: 'tcp', networkNames: [], ...o };
}

export type HealthCheckOverrides = Partial<HealthCheckSpec>;

/**
 * A health check with Marathon's defaults (HTTP, grace 300 s, interval 60 s, timeout 20 s,
 * maxConsecutiveFailures 3, portIndex 0, path `/`); a check with an `endpoint` is a pod's.
 */
export function makeHealthCheck(o: HealthCheckOverrides = {}): HealthCheckSpec {
  const protocol = o.protocol ?? 'HTTP';
  const form = o.form ?? (o.endpoint !== undefined ? 'pod' : 'app');
  const c: Mutable<HealthCheckSpec> = {
    protocol,
    gracePeriodMs: o.gracePeriodMs ?? 300_000,
    intervalMs: o.intervalMs ?? 60_000,
    timeoutMs: o.timeoutMs ?? 20_000,
    maxConsecutiveFailures: o.maxConsecutiveFailures ?? 3,
    delayMs: o.delayMs ?? 15_000,
    path: o.path ?? '/',
    ignoreHttp1xx: o.ignoreHttp1xx ?? false,
    ipProtocol: o.ipProtocol ?? 'IPv4',
    form,
  };
  if (o.port !== undefined) c.port = o.port;
  if (o.portIndex !== undefined) c.portIndex = o.portIndex;
  else if (o.port === undefined && o.endpoint === undefined && protocol !== 'COMMAND') c.portIndex = 0;
  if (o.endpoint !== undefined) c.endpoint = o.endpoint;
  if (o.command !== undefined) c.command = o.command;
  return c;
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
