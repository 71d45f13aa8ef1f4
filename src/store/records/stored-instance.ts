import type { AgentAttribute, AgentInfo } from '../../scheduler/model/agent';
import { CONDITIONS, type Condition } from '../../scheduler/model/condition';
import { Instance, type Goal, type InstanceReservation, type KillReason, type Task } from '../../scheduler/model/instance';
import type { OfferedPool } from '../../scheduler/model/offer';
import type { PersistentVolume } from '../../scheduler/model/reservation';
import type { ScalarResources } from '../../scheduler/model/resources';
import { TASK_STATES, type TaskState } from '../../scheduler/model/task-state';
import { type JsonSchema, defined } from './record-schema';

/**
 * How an instance is stored (store format 2; format 3 adds the optional resident `reservation` and a pool's `reservationId` and `volumes`). A plain JSON type of its own, mapped field by field
 * from and to the core's {@link Instance}: renaming a field of the core's model is a compile error
 * here, not a silent change of the stored format. A change to this shape needs a new store format
 * version and a migration (store-format-version.ts, record-migrations.ts).
 */
export interface StoredInstanceV1 {
  readonly instanceId: string;
  readonly runSpecId: string;
  readonly kind: 'app' | 'pod';
  readonly runSpecVersion: string;
  readonly configVersion: string;
  readonly incarnation: number;
  readonly goal: Goal;
  readonly condition: Condition;
  readonly conditionSinceMs: number;
  readonly role: string;
  readonly agent?: StoredAgentV1;
  readonly allocation?: readonly StoredPoolV1[];
  readonly reservation?: StoredReservationV1;
  readonly tasks: readonly StoredTaskV1[];
  readonly healthy?: boolean;
  readonly ready?: boolean;
  /** Healthy at least once in this incarnation (since format 9; record-migrations.ts sets it on older running records). */
  readonly proven?: boolean;
  readonly startedAtMs?: number;
  readonly unreachableSinceMs?: number;
  readonly killReason?: KillReason;
  readonly killRequestedAtMs?: number;
}

/** One task of a stored instance. */
export interface StoredTaskV1 {
  readonly taskId: string;
  readonly containerName?: string;
  readonly state?: TaskState;
  readonly condition: Condition;
  readonly hostPorts: readonly number[];
  readonly resources: StoredResourcesV1;
  readonly healthy?: boolean;
  readonly launchedAtMs: number;
  readonly startedAtMs?: number;
  readonly lastStatusMs?: number;
  readonly message?: string;
  /** The container's IP addresses when the task first ran (since format 5). */
  readonly ipAddresses?: readonly StoredIpAddressV1[];
}

/** One IP address of a task's container. */
export interface StoredIpAddressV1 {
  readonly ipAddress: string;
  readonly protocol: 'IPv4' | 'IPv6';
}

/** Scalar resources in milli-units, as the core counts them. */
export interface StoredResourcesV1 {
  readonly cpusMilli: number;
  readonly memMilli: number;
  readonly diskMilli: number;
  readonly gpus: number;
}

/** The agent an instance was placed on. */
export interface StoredAgentV1 {
  readonly agentId: string;
  readonly hostname: string;
  readonly region?: string;
  readonly zone?: string;
  readonly attributes: readonly StoredAttributeV1[];
}

/** An agent attribute, tagged by `type` as the core's model tags it. */
export type StoredAttributeV1 =
  | { readonly name: string; readonly type: 'text'; readonly text: string }
  | { readonly name: string; readonly type: 'scalar'; readonly scalar: number }
  | { readonly name: string; readonly type: 'ranges'; readonly ranges: readonly (readonly [number, number])[] }
  | { readonly name: string; readonly type: 'set'; readonly set: readonly string[] };

/** A resident instance's dynamic reservation and persistent volumes (since format 3: issue 15). */
export interface StoredReservationV1 {
  readonly agentId: string;
  readonly role: string;
  readonly volumes: readonly StoredVolumeV1[];
}

/** A persistent volume on a reservation's disk. */
export interface StoredVolumeV1 {
  readonly persistenceId: string;
  readonly containerPath: string;
  readonly diskMilli: number;
}

/** What a resident instance took from one pool of its offer (`reservationId`, `volumes`: its own reservation, since format 3). */
export interface StoredPoolV1 {
  readonly reservedFor?: string;
  readonly reservationId?: string;
  readonly volumes?: readonly StoredVolumeV1[];
  readonly cpusMilli: number;
  readonly memMilli: number;
  readonly diskMilli: number;
  readonly gpus: number;
  readonly ports: readonly (readonly [number, number])[];
}

/** The stored record of `instance` (a fresh plain object: the core may keep mutating its own). */
export function instanceToStored(instance: Instance): StoredInstanceV1 {
  const i = instance;
  return {
    instanceId: i.instanceId, runSpecId: i.runSpecId, kind: i.kind, runSpecVersion: i.runSpecVersion, configVersion: i.configVersion,
    incarnation: i.incarnation, goal: i.goal, condition: i.condition, conditionSinceMs: i.conditionSinceMs, role: i.role,
    ...defined('agent', i.agent === undefined ? undefined : agentToStored(i.agent)),
    ...defined('allocation', i.allocation?.map(poolCopy)),
    ...defined('reservation', i.reservation === undefined ? undefined : reservationCopy(i.reservation)),
    // Read without making the instance keep an app task it has not made yet (model/instance.ts).
    tasks: i.peekTasks().map(taskToStored),
    ...defined('healthy', i.healthy), ...defined('ready', i.ready), ...defined('proven', i.proven), ...defined('startedAtMs', i.startedAtMs),
    ...defined('unreachableSinceMs', i.unreachableSinceMs), ...defined('killReason', i.killReason),
    ...defined('killRequestedAtMs', i.killRequestedAtMs),
  };
}

/** The core's instance of a stored record that passed {@link STORED_INSTANCE_SCHEMA}. */
export function instanceFromStored(s: StoredInstanceV1): Instance {
  // Every field passed, absent ones as undefined: an Instance has every field (model/instance.ts).
  return Instance.from({
    instanceId: s.instanceId, runSpecId: s.runSpecId, kind: s.kind, runSpecVersion: s.runSpecVersion, configVersion: s.configVersion,
    incarnation: s.incarnation, goal: s.goal, condition: s.condition, conditionSinceMs: s.conditionSinceMs, role: s.role,
    agent: s.agent === undefined ? undefined : agentFromStored(s.agent),
    allocation: s.allocation?.map(poolCopy),
    reservation: s.reservation === undefined ? undefined : reservationCopy(s.reservation),
    tasks: s.tasks.map(taskFromStored),
    healthy: s.healthy, ready: s.ready, proven: s.proven, startedAtMs: s.startedAtMs, unreachableSinceMs: s.unreachableSinceMs,
    killReason: s.killReason, killRequestedAtMs: s.killRequestedAtMs,
  });
}

function taskToStored(t: Task): StoredTaskV1 {
  return {
    taskId: t.taskId, ...defined('containerName', t.containerName), ...defined('state', t.state), condition: t.condition,
    hostPorts: [...t.hostPorts], resources: resourcesCopy(t.resources), ...defined('healthy', t.healthy),
    launchedAtMs: t.launchedAtMs, ...defined('startedAtMs', t.startedAtMs), ...defined('lastStatusMs', t.lastStatusMs),
    ...defined('message', t.message), ...defined('ipAddresses', t.ipAddresses?.map(ipAddressCopy)),
  };
}

function taskFromStored(t: StoredTaskV1): Task {
  return {
    taskId: t.taskId, ...defined('containerName', t.containerName), ...defined('state', t.state), condition: t.condition,
    hostPorts: [...t.hostPorts], resources: resourcesCopy(t.resources), ...defined('healthy', t.healthy),
    launchedAtMs: t.launchedAtMs, ...defined('startedAtMs', t.startedAtMs), ...defined('lastStatusMs', t.lastStatusMs),
    ...defined('message', t.message), ...defined('ipAddresses', t.ipAddresses?.map(ipAddressCopy)),
  };
}

function ipAddressCopy(ip: StoredIpAddressV1): StoredIpAddressV1 {
  return { ipAddress: ip.ipAddress, protocol: ip.protocol };
}

/** Scalar resources, copied (from the stored form or to it: the shapes are the same). */
export function resourcesCopy(r: StoredResourcesV1 | ScalarResources): ScalarResources {
  return { cpusMilli: r.cpusMilli, memMilli: r.memMilli, diskMilli: r.diskMilli, gpus: r.gpus };
}

function agentToStored(a: AgentInfo): StoredAgentV1 {
  return {
    agentId: a.agentId, hostname: a.hostname, ...defined('region', a.region), ...defined('zone', a.zone),
    attributes: a.attributes.map(attributeCopy),
  };
}

function agentFromStored(a: StoredAgentV1): AgentInfo {
  return {
    agentId: a.agentId, hostname: a.hostname, ...defined('region', a.region), ...defined('zone', a.zone),
    attributes: a.attributes.map(attributeCopy),
  };
}

function attributeCopy(a: AgentAttribute | StoredAttributeV1): AgentAttribute {
  switch (a.type) {
    case 'text': return { name: a.name, type: 'text', text: a.text };
    case 'scalar': return { name: a.name, type: 'scalar', scalar: a.scalar };
    case 'ranges': return { name: a.name, type: 'ranges', ranges: a.ranges.map(([b, e]) => [b, e] as const) };
    case 'set': return { name: a.name, type: 'set', set: [...a.set] };
  }
}

/** An offered pool, copied (with its dynamic reservation's id and volumes, when on one). */
export function poolCopy(p: OfferedPool | StoredPoolV1): OfferedPool {
  return {
    ...defined('reservedFor', p.reservedFor), ...defined('reservationId', p.reservationId), ...defined('volumes', p.volumes?.map(volumeCopy)),
    cpusMilli: p.cpusMilli, memMilli: p.memMilli, diskMilli: p.diskMilli, gpus: p.gpus,
    ports: p.ports.map(([b, e]) => [b, e] as const),
  };
}

function reservationCopy(r: InstanceReservation | StoredReservationV1): InstanceReservation {
  return { agentId: r.agentId, role: r.role, volumes: r.volumes.map(volumeCopy) };
}

/** A persistent volume, copied. */
export function volumeCopy(v: PersistentVolume | StoredVolumeV1): PersistentVolume {
  return { persistenceId: v.persistenceId, containerPath: v.containerPath, diskMilli: v.diskMilli };
}

const NUMBER: JsonSchema = { type: 'number' };
const STRING: JsonSchema = { type: 'string' };
const BOOLEAN: JsonSchema = { type: 'boolean' };
const RANGE: JsonSchema = { type: 'array', items: NUMBER, minItems: 2, maxItems: 2 };
const closed = (required: string[], properties: Record<string, JsonSchema>): JsonSchema =>
  ({ type: 'object', required, properties, additionalProperties: false });
const VOLUME = closed(['persistenceId', 'containerPath', 'diskMilli'], { persistenceId: STRING, containerPath: STRING, diskMilli: NUMBER });
const RESOURCES = closed(['cpusMilli', 'memMilli', 'diskMilli', 'gpus'], { cpusMilli: NUMBER, memMilli: NUMBER, diskMilli: NUMBER, gpus: NUMBER });

const ATTRIBUTE: JsonSchema = {
  type: 'object', required: ['type'], properties: { type: { enum: ['text', 'scalar', 'ranges', 'set'] } }, discriminator: { propertyName: 'type' },
  oneOf: [
    closed(['name', 'type', 'text'], { name: STRING, type: { const: 'text' }, text: STRING }),
    closed(['name', 'type', 'scalar'], { name: STRING, type: { const: 'scalar' }, scalar: NUMBER }),
    closed(['name', 'type', 'ranges'], { name: STRING, type: { const: 'ranges' }, ranges: { type: 'array', items: RANGE } }),
    closed(['name', 'type', 'set'], { name: STRING, type: { const: 'set' }, set: { type: 'array', items: STRING } }),
  ],
};

const TASK = closed(['taskId', 'condition', 'hostPorts', 'resources', 'launchedAtMs'], {
  taskId: STRING, containerName: STRING, state: { enum: [...TASK_STATES] }, condition: { enum: [...CONDITIONS] },
  hostPorts: { type: 'array', items: NUMBER }, resources: RESOURCES, healthy: BOOLEAN, launchedAtMs: NUMBER,
  startedAtMs: NUMBER, lastStatusMs: NUMBER, message: STRING,
  ipAddresses: { type: 'array', items: closed(['ipAddress', 'protocol'], { ipAddress: STRING, protocol: { enum: ['IPv4', 'IPv6'] } }) },
});

/** Every kill reason and goal (`satisfies Record<…>`: a member added to the core's type must be added here). */
const KILL_REASONS = Object.keys({
  'scale-down': 1, user: 1, unhealthy: 1, replaced: 1, deleted: 1, 'pod-sibling': 1, unknown: 1,
} satisfies Record<KillReason, 1>);
const GOALS = Object.keys({ Running: 1, Stopped: 1, Decommissioned: 1 } satisfies Record<Goal, 1>);

/** The JSON Schema every stored instance is checked against on load (closed: an unknown field fails). */
export const STORED_INSTANCE_SCHEMA: JsonSchema = closed(
  ['instanceId', 'runSpecId', 'kind', 'runSpecVersion', 'configVersion', 'incarnation', 'goal', 'condition', 'conditionSinceMs', 'role', 'tasks'],
  {
    instanceId: STRING, runSpecId: STRING, kind: { enum: ['app', 'pod'] }, runSpecVersion: STRING, configVersion: STRING,
    incarnation: NUMBER, goal: { enum: GOALS }, condition: { enum: [...CONDITIONS] }, conditionSinceMs: NUMBER, role: STRING,
    agent: closed(['agentId', 'hostname', 'attributes'], {
      agentId: STRING, hostname: STRING, region: STRING, zone: STRING, attributes: { type: 'array', items: ATTRIBUTE },
    }),
    allocation: {
      type: 'array',
      items: closed(['cpusMilli', 'memMilli', 'diskMilli', 'gpus', 'ports'], {
        reservedFor: STRING, reservationId: STRING, volumes: { type: 'array', items: VOLUME }, cpusMilli: NUMBER, memMilli: NUMBER, diskMilli: NUMBER, gpus: NUMBER, ports: { type: 'array', items: RANGE },
      }),
    },
    reservation: closed(['agentId', 'role', 'volumes'], { agentId: STRING, role: STRING, volumes: { type: 'array', items: VOLUME } }),
    tasks: { type: 'array', items: TASK }, healthy: BOOLEAN, ready: BOOLEAN, proven: BOOLEAN, startedAtMs: NUMBER, unreachableSinceMs: NUMBER,
    killReason: { enum: KILL_REASONS }, killRequestedAtMs: NUMBER,
  },
);
