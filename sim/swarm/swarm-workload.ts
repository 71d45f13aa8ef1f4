import type { AgentInfo } from '../../src/scheduler/model/agent';
import { generateConstraints, type WireConstraint } from './swarm-constraints';
import type { SwarmDraw } from './swarm-draw';
import { SWARM_ROLES } from './swarm-cluster';

/** What the workload generator knows of the run it generates for. */
export interface WorkloadSetting {
  /** Every agent the run will ever have (initial and added), for constraint values. */
  readonly agents: readonly AgentInfo[];
  /** The scheduler's default role (`options.defaultRole`). */
  readonly defaultRole: string;
  /** Some agent offers GPUs. */
  readonly gpus: boolean;
  /**
   * Light workload for a run that ends in a quiet period with a convergence check: small
   * resources, fixed ports unique per run spec, no deliberately unsatisfiable constraint.
   */
  readonly light: boolean;
  /** Probability that a constraint asks for something no agent has. */
  readonly impossibleConstraint: number;
}

/** One generated run spec: its id, kind and role setting; definitions are drawn by {@link defineRunSpec}. */
export interface SwarmRunSpec {
  readonly id: string;
  readonly kind: 'app' | 'pod';
  /** The role written in the definition (absent: the converter's default). */
  readonly role?: string;
  /** Fixed host ports this run spec may use (light runs: unique to it). */
  readonly fixedPorts: readonly number[];
}

/** A Marathon definition as a scenario step carries it. */
export type WireDefinition = Record<string, unknown> & { id: string };

const GROUPS = ['root', 'role', 'plain'] as const;
const NAMES = ['web', 'api', 'worker', 'db', 'cache', 'batch', 'shop', 'auth', 'search', 'queue'];
/** Fixed ports in every "wide" port range of the generated agents (31000-32000): in-range for them, absent elsewhere. */
const FIXED_PORT_BASE = 31_990;

/**
 * Draws the run specs of a seed: 1–8 ids in the root group, under a role group (`/prod/…`, which
 * may run as that role) or a plain group, about a third of them pods.
 */
export function generateRunSpecs(draw: SwarmDraw, setting: WorkloadSetting): SwarmRunSpec[] {
  const count = draw.int(1, 8);
  const names = draw.sample(NAMES, count);
  let nextFixed = FIXED_PORT_BASE;
  return names.map((name, i) => {
    const where = draw.pick(GROUPS);
    const groupRole = draw.pick(SWARM_ROLES);
    const id = where === 'root' ? `/${name}` : where === 'role' ? `/${groupRole}/${name}` : `/team.${i}/${name}`;
    const allowed = where === 'role' ? [...new Set([setting.defaultRole, groupRole])] : [setting.defaultRole];
    const role = draw.chance(0.6) ? draw.pick(allowed) : undefined;
    const fixedPorts = setting.light
      ? [nextFixed--, nextFixed--]
      : [draw.pick([31_050, 31_990, 9050, 8080, 30_020, 5000]), draw.pick([31_051, 9051, 33_050])];
    return { id, kind: draw.chance(0.35) ? 'pod' : 'app', ...(role === undefined ? {} : { role }), fixedPorts };
  });
}

/** The role a run spec ends up with (as the converter resolves it), for acceptedResourceRoles. */
function effectiveRole(spec: SwarmRunSpec, setting: WorkloadSetting): string {
  return spec.role ?? setting.defaultRole;
}

/**
 * Draws one full definition of `spec` (its first, or a config change): resources, instances,
 * ports or endpoints, constraints, health checks with short intervals, acceptedResourceRoles,
 * unreachable strategy, kill selection, backoff, kill grace. Deterministic in `draw`.
 */
export function defineRunSpec(draw: SwarmDraw, spec: SwarmRunSpec, setting: WorkloadSetting): WireDefinition {
  return spec.kind === 'app' ? defineApp(draw, spec, setting) : definePod(draw, spec, setting);
}

function resources(draw: SwarmDraw, setting: WorkloadSetting): { cpus: number; mem: number; disk?: number; gpus?: number } {
  const gpus = setting.gpus && draw.chance(setting.light ? 0.05 : 0.1) ? 1 : 0;
  if (setting.light) return { cpus: draw.pick([0.01, 0.02, 0.05]), mem: draw.pick([8, 16, 32]), ...(gpus > 0 ? { gpus } : {}) };
  const disk = draw.pick([0, 0, 10, 100]);
  return {
    cpus: draw.pick([0.05, 0.1, 0.25, 0.5, 1, 2]), mem: draw.pick([16, 32, 64, 128, 256, 1024]),
    ...(disk > 0 ? { disk } : {}), ...(gpus > 0 ? { gpus } : {}),
  };
}

function instances(draw: SwarmDraw, setting: WorkloadSetting): number {
  return setting.light ? draw.int(1, 6) : draw.int(0, 10);
}

function acceptedRoles(draw: SwarmDraw, role: string, allowEmpty: boolean): string[] | undefined {
  const variants: (string[] | undefined)[] = [undefined, undefined, ['*']];
  if (role !== '*') variants.push([role], ['*', role], [role, '*']);
  if (allowEmpty) variants.push([]);
  return draw.pick(variants);
}

function unreachable(draw: SwarmDraw): unknown {
  const kind = draw.weighted([['absent', 4], ['disabled', 1], ['seconds', 3]] as const);
  if (kind === 'absent') return undefined;
  // The API's schema takes the string in lower case only, and a scenario's definitions meet it.
  // The draw that picked the case stays, so that the rest of each seed's scenario is unchanged.
  if (kind === 'disabled') return draw.pick(['disabled', 'disabled']);
  const inactiveAfterSeconds = draw.pick([0, 10, 60, 300]);
  return { inactiveAfterSeconds, expungeAfterSeconds: inactiveAfterSeconds + draw.pick([0, 60, 600]) };
}

function checkTiming(draw: SwarmDraw): Record<string, number> {
  const intervalSeconds = draw.int(1, 10);
  return {
    gracePeriodSeconds: draw.pick([0, 5, 10, 30]),
    intervalSeconds,
    timeoutSeconds: draw.int(1, intervalSeconds),
    maxConsecutiveFailures: draw.int(0, 3),
    ...(draw.chance(0.3) ? { delaySeconds: draw.int(0, 2) } : {}),
  };
}

function defineApp(draw: SwarmDraw, spec: SwarmRunSpec, setting: WorkloadSetting): WireDefinition {
  const role = effectiveRole(spec, setting);
  const portCount = draw.weighted<'default' | number>([['default', 3], [0, 1], [1, 3], [2, 2], [3, 1]]);
  const fixed = [...spec.fixedPorts];
  const portDefinitions = portCount === 'default' ? undefined : Array.from({ length: portCount }, (_, i) => {
    const port = fixed.length > 0 && draw.chance(0.25) ? fixed.shift() as number : 0;
    return { port, ...(draw.chance(0.5) ? { name: `p${i}` } : {}), ...(draw.chance(0.2) ? { protocol: draw.pick(['tcp', 'udp']) } : {}) };
  });
  const ports = portCount === 'default' ? 1 : portCount;
  // requirePorts makes every service port a host port (Marathon): a dynamic one becomes a port of
  // --local_port_min..max that no simulated agent offers, so only all-fixed apps ask for it.
  const requirePorts = portDefinitions !== undefined && portDefinitions.some((p) => p.port !== 0) && draw.chance(0.7)
    && portDefinitions.every((p) => p.port !== 0);
  const healthChecks = ports === 0
    ? (draw.chance(0.2) ? [{ protocol: 'COMMAND', command: { value: 'true' }, ...checkTiming(draw) }] : [])
    : appChecks(draw, ports);
  const constraints = generateConstraints(draw, setting.agents, setting.impossibleConstraint, setting.light);
  const accepted = acceptedRoles(draw, role, false);
  const strategy = unreachable(draw);
  return {
    id: spec.id,
    ...(draw.chance(0.85) ? { cmd: `sleep ${draw.pick([600, 3600])}` } : { args: ['sleep', '3600'] }),
    instances: instances(draw, setting),
    ...resources(draw, setting),
    ...(spec.role === undefined ? {} : { role: spec.role }),
    ...(accepted === undefined ? {} : { acceptedResourceRoles: accepted }),
    ...(portDefinitions === undefined ? {} : { portDefinitions }),
    ...(requirePorts ? { requirePorts } : {}),
    ...(healthChecks.length > 0 ? { healthChecks } : {}),
    ...(constraints.length > 0 ? { constraints } : {}),
    ...(strategy === undefined ? {} : { unreachableStrategy: strategy }),
    ...(draw.chance(0.4) ? { killSelection: draw.pick(['YOUNGEST_FIRST', 'OLDEST_FIRST', 'oldest_first']) } : {}),
    ...(draw.chance(0.7) ? backoff(draw) : {}),
    ...(draw.chance(0.4) ? { taskKillGracePeriodSeconds: draw.int(0, 10) } : {}),
    ...(draw.chance(0.3) ? { upgradeStrategy: { minimumHealthCapacity: draw.pick([0, 0.5, 1]), maximumOverCapacity: draw.pick([0, 0.5, 1]) } } : {}),
    env: { VERSION: `v${draw.int(1, 99)}` },
  };
}

function backoff(draw: SwarmDraw): Record<string, number> {
  // Whole seconds: the API's schema (and Marathon's) reads backoffSeconds as an integer.
  return { backoffSeconds: draw.pick([0, 1, 1, 2, 5]), backoffFactor: draw.pick([1, 1.15, 2, 3]), maxLaunchDelaySeconds: draw.pick([0, 10, 60, 300]) };
}

/** No checks, one or two scheduler-run checks, or one agent-run check (an app cannot mix them, nor have two agent-run ones). */
function appChecks(draw: SwarmDraw, ports: number): Record<string, unknown>[] {
  const kind = draw.weighted([['none', 4], ['scheduler', 3], ['agent', 3]] as const);
  if (kind === 'none') return [];
  if (kind === 'agent') return [appCheck(draw, ports, draw.weighted([['MESOS_HTTP', 3], ['MESOS_TCP', 1], ['mesos_http', 0.3], ['COMMAND', 0.5]] as const))];
  return Array.from({ length: draw.int(1, 2) }, () => appCheck(draw, ports, draw.weighted([['HTTP', 3], ['HTTPS', 1], ['TCP', 2], ['http', 0.3]] as const)));
}

function appCheck(draw: SwarmDraw, ports: number, protocol: string): Record<string, unknown> {
  if (protocol === 'COMMAND') return { protocol, command: { value: 'curl -f localhost' }, ...checkTiming(draw) };
  const http = protocol !== 'TCP' && protocol !== 'MESOS_TCP';
  return {
    protocol,
    ...(draw.chance(0.8) ? { portIndex: draw.int(0, ports - 1) } : {}),
    ...(http ? { path: draw.pick(['/', '/health', '/ping']) } : {}),
    ...checkTiming(draw),
  };
}

function definePod(draw: SwarmDraw, spec: SwarmRunSpec, setting: WorkloadSetting): WireDefinition {
  const role = effectiveRole(spec, setting);
  const fixed = [...spec.fixedPorts];
  const containerCount = draw.int(1, 3);
  const containers = Array.from({ length: containerCount }, (_, c) => {
    const endpoints = Array.from({ length: draw.weighted<number>([[0, 2], [1, 3], [2, 1]]) }, (_, e) => {
      const hostPort = fixed.length > 0 && draw.chance(0.25) ? fixed.shift() as number : draw.pick([0, undefined]);
      return { name: `ep-${c}-${e}`, ...(hostPort === undefined ? {} : { hostPort }), ...(draw.chance(0.3) ? { protocol: ['http'] } : {}) };
    });
    const healthCheck = podCheck(draw, endpoints.map((e) => e.name));
    return {
      name: `c${c}`,
      resources: resources(draw, { ...setting, gpus: setting.gpus && c === 0 }),
      ...(draw.chance(0.8) ? { exec: { command: { shell: 'sleep 3600' } } } : {}),
      ...(endpoints.length > 0 ? { endpoints } : {}),
      ...(healthCheck === undefined ? {} : { healthCheck }),
      ...(draw.chance(0.3) ? { lifecycle: { killGracePeriodSeconds: draw.int(0, 10) } } : {}),
    };
  });
  const constraints = generateConstraints(draw, setting.agents, setting.impossibleConstraint, setting.light)
    .map((c: WireConstraint) => (draw.chance(0.7) ? { fieldName: c[0], operator: c[1], ...(c.length === 3 ? { value: c[2] } : {}) } : c));
  const accepted = acceptedRoles(draw, role, true);
  const placement = {
    ...(constraints.length > 0 ? { constraints } : {}),
    ...(accepted === undefined ? {} : { acceptedResourceRoles: accepted }),
  };
  const strategy = unreachable(draw);
  const scheduling = {
    ...(draw.chance(0.6) ? { backoff: { backoff: draw.pick([0, 0.5, 1, 2]), backoffFactor: draw.pick([1, 1.15, 2]), maxLaunchDelay: draw.pick([0, 10, 60, 3600]) } } : {}),
    ...(Object.keys(placement).length > 0 ? { placement } : {}),
    ...(draw.chance(0.4) ? { killSelection: draw.pick(['YOUNGEST_FIRST', 'OLDEST_FIRST']) } : {}),
    ...(strategy === undefined ? {} : { unreachableStrategy: strategy }),
  };
  return {
    id: spec.id,
    ...(spec.role === undefined ? {} : { role: spec.role }),
    scaling: { kind: 'fixed', instances: instances(draw, setting) },
    ...(draw.chance(0.5) ? { networks: [{ mode: 'host' }] } : {}),
    containers,
    ...(Object.keys(scheduling).length > 0 ? { scheduling } : {}),
    // At least the default executor's needs, the API's (and Marathon's) minimum: 0.1 cpus, 32 MiB.
    ...(draw.chance(0.4) ? { executorResources: setting.light ? { cpus: 0.1, mem: 32 } : { cpus: draw.pick([0.1, 0.2]), mem: draw.pick([32, 64]) } } : {}),
    labels: { VERSION: `v${draw.int(1, 99)}` },
  };
}

function podCheck(draw: SwarmDraw, endpoints: readonly string[]): Record<string, unknown> | undefined {
  const kind = draw.weighted([['none', 3], ['http', endpoints.length > 0 ? 3 : 0], ['tcp', endpoints.length > 0 ? 1 : 0], ['exec', 0.5]] as const);
  if (kind === 'none') return undefined;
  const drawn = checkTiming(draw);
  // A pod's check times out before its interval ends (Marathon's PodsValidation, which the
  // converter applies): the interval is stretched past the drawn timeout, the draws unchanged.
  const timing = drawn.timeoutSeconds < drawn.intervalSeconds ? drawn : { ...drawn, intervalSeconds: drawn.timeoutSeconds + 1 };
  if (kind === 'exec') return { exec: { command: { shell: 'true' } }, ...timing };
  if (kind === 'tcp') return { tcp: { endpoint: draw.pick(endpoints) }, ...timing };
  return { http: { endpoint: draw.pick(endpoints), path: draw.pick(['/', '/health']), ...(draw.chance(0.2) ? { scheme: 'HTTP' } : {}) }, ...timing };
}
