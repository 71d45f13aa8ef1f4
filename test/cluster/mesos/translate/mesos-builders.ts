import { compileLaunchRequest } from '../../../../src/scheduler/state/launch-request';
import { OfferLedger } from '../../../../src/scheduler/matcher/offer-ledger';
import { reserve } from '../../../../src/scheduler/matcher/reserve';
import { appLaunchOperation, podLaunchOperation } from '../../../../src/scheduler/launcher/task-launch';
import { Instance, type Task } from '../../../../src/scheduler/model/instance';
import type { LaunchOperation } from '../../../../src/scheduler/model/launch';
import type { Offer } from '../../../../src/scheduler/model/offer';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';
import type { AppSpec } from '../../../../src/scheduler/model/app';
import type { PodSpec } from '../../../../src/scheduler/model/pod';
import type {
  AllocationInfo, Attribute, Offer as MesosOffer, ReservationInfo, Resource, TaskState, TaskStatus,
} from '../../../../src/cluster/mesos/codec/mesos-model';
import { listSamples, readSampleJson } from '../codec/sample-files';
import { int64Of } from '../../../../src/cluster/mesos/codec/int64';

/** Reservation shape of a built resource. */
export interface ResourceOverrides {
  /** Pre-refinement `role` (`'*'` = unreserved). */
  readonly role?: string;
  /** Pre-refinement dynamic reservation marker. */
  readonly reservation?: ReservationInfo;
  /** Post-refinement stack. */
  readonly reservations?: readonly ReservationInfo[];
  readonly allocationRole?: string;
  readonly extra?: Partial<Resource>;
}

function identity(o: ResourceOverrides): Partial<Resource> {
  const r: Partial<Resource> = {};
  if (o.role !== undefined) r.role = o.role;
  if (o.reservation !== undefined) r.reservation = o.reservation;
  if (o.reservations !== undefined) r.reservations = [...o.reservations];
  if (o.allocationRole !== undefined) r.allocationInfo = { role: o.allocationRole };
  return { ...r, ...o.extra };
}

/** A SCALAR resource (`cpus`, `mem`, `disk`, `gpus`, …). */
export function scalarResource(name: string, value: number, o: ResourceOverrides = {}): Resource {
  return { name, type: 'SCALAR', scalar: { value }, ...identity(o) };
}

/** A `ports` RANGES resource. */
export function portsResource(ranges: readonly (readonly [number, number])[], o: ResourceOverrides = {}): Resource {
  return { name: 'ports', type: 'RANGES', ranges: { range: ranges.map(([begin, end]) => ({ begin, end })) }, ...identity(o) };
}

/** cpus, mem, disk and ports with the same reservation shape, as an agent offers them. */
export function resourceSet(amounts: { cpus: number; mem: number; disk?: number; ports?: readonly (readonly [number, number])[] }, o: ResourceOverrides = {}): Resource[] {
  const out = [scalarResource('cpus', amounts.cpus, o), scalarResource('mem', amounts.mem, o)];
  if (amounts.disk !== undefined) out.push(scalarResource('disk', amounts.disk, o));
  if (amounts.ports !== undefined) out.push(portsResource(amounts.ports, o));
  return out;
}

export interface MesosOfferOverrides {
  readonly id?: string;
  readonly agentId?: string;
  readonly hostname?: string;
  readonly resources?: readonly Resource[];
  readonly attributes?: readonly Attribute[];
  readonly allocationRole?: string;
  readonly region?: string;
  readonly zone?: string;
}

/**
 * A Mesos offer; by default 4 cpus, 4096 MiB, 10000 MiB disk, ports 31000–32000, all unreserved
 * in the pre-refinement format and allocated to `*` (what the recorded master sent).
 */
export function makeMesosOffer(o: MesosOfferOverrides = {}): MesosOffer {
  const allocationRole = o.allocationRole ?? '*';
  const resources = o.resources ?? resourceSet({ cpus: 4, mem: 4096, disk: 10_000, ports: [[31000, 32000]] }, { role: '*', allocationRole });
  const offer: MesosOffer = {
    id: { value: o.id ?? 'O1' },
    frameworkId: { value: 'F1' },
    agentId: { value: o.agentId ?? 'S1' },
    hostname: o.hostname ?? 'agent-1.example',
    resources: [...resources],
    allocationInfo: { role: allocationRole } satisfies AllocationInfo,
  };
  if (o.attributes !== undefined) offer.attributes = [...o.attributes];
  if (o.region !== undefined && o.zone !== undefined) offer.domain = { faultDomain: { region: { name: o.region }, zone: { name: o.zone } } };
  return offer;
}

/** A Mesos status update. */
export function makeMesosStatus(state: TaskState, o: Partial<TaskStatus> = {}): TaskStatus {
  return { taskId: { value: 'web.instance-1._app.1' }, state, ...o };
}

/** A task as the core's placement creates it (launcher/place-instance.ts). */
function task(taskId: string, containerName: string | undefined, hostPorts: readonly number[], resources: Task['resources']): Task {
  return {
    taskId, containerName, state: undefined, condition: 'Provisioned', hostPorts, resources,
    healthy: undefined, launchedAtMs: 0, startedAtMs: undefined, lastStatusMs: undefined, message: undefined,
  };
}

/**
 * The launch operations the core would produce for `specs` on `offer`, one instance each in
 * order, with the core's own Reserve step (reserved pools first, lowest free ports) and its own
 * launcher (launcher/task-launch.ts), so that operations are exactly what the real core hands to
 * a driver.
 */
export function coreLaunches(offer: Offer, specs: readonly RunSpec[]): LaunchOperation[] {
  const ledger = new OfferLedger(offer);
  return specs.map((spec, n) => {
    const res = reserve(compileLaunchRequest(spec), ledger);
    const instanceId = `${spec.id.slice(1).replace(/\//g, '_')}.instance-${n + 1}`;
    const inst: Instance = Instance.from({
      instanceId, runSpecId: spec.id, kind: spec.kind, runSpecVersion: spec.version, configVersion: spec.versionInfo.lastConfigChangeAt,
      incarnation: 1, goal: 'Running', condition: 'Provisioned', conditionSinceMs: 0, role: spec.role, agent: offer.agent, tasks: [],
    });
    if (spec.kind === 'app') {
      inst.tasks = [task(`${instanceId}._app.1`, undefined, res.hostPorts, spec.resources)];
      return appLaunchOperation(spec, inst, inst.tasks[0], offer, res.allocation);
    }
    let next = 0;
    inst.tasks = spec.containers.map((c) => {
      const ports = c.endpoints.filter((e) => e.hostPort !== undefined).map(() => res.hostPorts[next++]);
      return task(`${instanceId}.${c.name}.1`, c.name, ports, c.resources);
    });
    return podLaunchOperation(spec, inst, `instance-${instanceId}`, offer, res.allocation);
  });
}

/** The one LAUNCH of `spec` on `offer`. */
export function coreAppLaunch(offer: Offer, spec: AppSpec): Extract<LaunchOperation, { kind: 'launch' }> {
  const op = coreLaunches(offer, [spec])[0];
  if (op.kind !== 'launch') throw new Error('expected a launch');
  return op;
}

/** The one LAUNCH_GROUP of `spec` on `offer`. */
export function corePodLaunch(offer: Offer, spec: PodSpec): Extract<LaunchOperation, { kind: 'launchGroup' }> {
  const op = coreLaunches(offer, [spec])[0];
  if (op.kind !== 'launchGroup') throw new Error('expected a launch group');
  return op;
}

/** Sum of a scalar over Mesos resources, in milli-units. */
export function sumMilli(resources: readonly Resource[] | undefined, name: string): number {
  return (resources ?? []).filter((r) => r.name === name).reduce((n, r) => n + Math.round((r.scalar?.value ?? 0) * 1000), 0);
}

/** The single ports taken by Mesos resources, in order. */
export function portsOf(resources: readonly Resource[] | undefined): number[] {
  const out: number[] = [];
  for (const r of resources ?? []) {
    if (r.name !== 'ports') continue;
    for (const range of r.ranges?.range ?? []) for (let p = Number(range.begin); p <= Number(range.end); p++) out.push(p);
  }
  return out;
}

/** Numeric fields the recorded JSON (proto3 mapping) writes as strings: 64-bit integers. */
const INT64_KEYS = new Set(['begin', 'end', 'nanoseconds']);

/** snake_case keys → camelCase, 64-bit integer strings → exact Int64 (as the codec reads them): the recorded JSON as mesos-model.ts data. */
export function camelCased(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => camelCased(v, key));
  if (typeof value === 'string' && INT64_KEYS.has(key) && /^\d+$/.test(value)) return int64Of(BigInt(value), key);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => {
    const camel = k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    return [camel, camelCased(v, camel)];
  }));
}

/**
 * A recorded event as python-protobuf decoded it (`pb/decoded/events/<file>` of the repository's
 * samples), camelCased. Throws when the file is missing: the samples live in the repository.
 */
export function recordedEvent(file: string): Record<string, unknown> {
  return camelCased(readSampleJson(`pb/decoded/events/${file}`)) as Record<string, unknown>;
}

/** The file names of the recorded events of one type (`UPDATE`, `OFFERS`, …), in arrival order. */
export function recordedEventFiles(type: string): string[] {
  return listSamples('pb/decoded/events', `-${type}.json`);
}
