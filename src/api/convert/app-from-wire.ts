import type { PersistentVolumeSpec } from '../../scheduler/model/reservation';
import { appPersistentVolumes } from './persistent-volumes-from-wire';
import type { AppSpec, KillSelection, UpgradePolicy } from '../../scheduler/model/run-spec';
import { isSingleInstance, SINGLE_INSTANCE_UPGRADE } from '../../scheduler/groups/single-instance';
import { appFetchFromWire } from './app-fetch-from-wire';
import { readinessChecksFromWire, type ConvertedReadinessChecks } from './readiness-checks-from-wire';
import { appHealthChecksFromWire, type ConvertedHealthChecks } from './app-health-checks-from-wire';
import { appNetworksFromWire, type ConvertedNetworks } from './app-networks-from-wire';
import { appPortsFromWire, type ConvertedPorts } from './app-ports-from-wire';
import { type ConvertedConstraints, constraintsFromWire } from './constraints-from-wire';
import type { ConvertContext } from './convert-context';
import type { ConvertResult } from './convert-result';
import { ErrorSink } from './error-sink';
import { DEFAULT_KILL_GRACE_MS } from './kill-grace';
import { killSelectionFromWire } from './kill-selection-from-wire';
import { childPointer } from './json-pointer';
import { pathIdFromWire } from './path-id';
import { DEFAULT_RESOURCES, type ConvertedResources, resourcesFromWire } from './resources-from-wire';
import { type ResolvedRoles, resolveRoles } from './role-rules';
import { type ConvertedStringMap, stringMapFromWire } from './string-map-from-wire';
import { APP_UNREACHABLE_DEFAULT, type ConvertedUnreachable, unreachableFromWire } from './unreachable-from-wire';
import { type ConvertedUpgrade, DEFAULT_UPGRADE, RESIDENT_UPGRADE, upgradeFromWire } from './upgrade-from-wire';
import { isRecord, WireObject } from './wire-object';

/** Marathon's message when the app has nothing to run, or both `cmd` and `args` (facts 23). */
export const CMD_ARGS_CONTAINER_MESSAGE =
  "AppDefinition must either contain one of 'cmd' or 'args', and/or a 'container'.";

/** Read-only fields of Marathon's app responses and translated deprecated fields: never echoed. */
const DROPPED_FIELDS = [
  'ports', 'uris', 'ipAddress', 'tasksStaged', 'tasksRunning', 'tasksHealthy', 'tasksUnhealthy',
  'deployments', 'tasks', 'lastTaskFailure', 'taskStats', 'tasksStats', 'readinessCheckResults',
];

const RESIDENCY_DEFAULT = { relaunchEscalationTimeoutSeconds: 3600, taskLostBehavior: 'WAIT_FOREVER' };

interface Backoff {
  readonly backoffSeconds: number;
  readonly backoffFactor: number;
  readonly maxLaunchDelaySeconds: number;
}

interface AppParts {
  readonly id: string | undefined;
  readonly cmd?: string;
  readonly args?: readonly string[];
  readonly resident: boolean;
  readonly persistentVolumes: readonly PersistentVolumeSpec[];
  readonly instances: number;
  readonly resources: ConvertedResources;
  readonly networks: ConvertedNetworks;
  readonly ports: ConvertedPorts;
  readonly healthChecks: ConvertedHealthChecks;
  readonly readinessChecks: ConvertedReadinessChecks;
  readonly constraints: ConvertedConstraints;
  readonly upgrade: ConvertedUpgrade;
  readonly unreachable: ConvertedUnreachable;
  readonly killSelection: KillSelection;
  readonly backoff: Backoff;
  readonly roles: ResolvedRoles;
  readonly env: ConvertedStringMap;
  readonly labels: ConvertedStringMap;
  readonly executor: string;
  readonly killGraceSeconds?: number;
  readonly fetch?: readonly unknown[];
}

/**
 * Converts a Marathon app definition (the body of `POST /v2/apps`) into the core's normalized
 * {@link AppSpec}: every Marathon 1.11 default filled (facts table L, spec 2.4–2.7), units
 * converted (milli-units, milliseconds), ports and host ports derived from the networking, and
 * `definition` set to the app as Marathon's GET returns it. All semantic problems are collected
 * and returned with their JSON pointers.
 */
export function appFromWire(json: unknown, ctx: ConvertContext): ConvertResult<AppSpec> {
  const sink = new ErrorSink();
  const app = WireObject.of(json, '', sink);
  if (app === undefined) return { ok: false, errors: sink.details() };
  const parts = readApp(app, ctx);
  if (sink.failed || parts.id === undefined) return { ok: false, errors: sink.details() };
  return { ok: true, spec: buildSpec(app, { ...parts, id: parts.id }, ctx) };
}

function readApp(app: WireObject, ctx: ConvertContext): AppParts {
  const id = pathIdFromWire(app);
  const container = app.child('container');
  const resident = hasVolume(container, 'persistent');
  const networks = appNetworksFromWire(app, container, ctx);
  const ports = appPortsFromWire(app, container, networks.mode);
  const labels = stringMapFromWire(app, 'labels');
  return {
    id, ...commandOf(app), resident, networks, ports, labels,
    persistentVolumes: appPersistentVolumes(container?.raw),
    instances: app.number('instances', 1, { min: 0, integer: true }),
    resources: resourcesFromWire(app, DEFAULT_RESOURCES),
    healthChecks: appHealthChecksFromWire(app, ports.slots),
    readinessChecks: readinessChecksFromWire(app, ports.slots),
    constraints: constraintsFromWire(app, 'constraints'),
    upgrade: upgradeFromWire(app, 'upgradeStrategy', upgradeDefaults(labels, resident || hasVolume(container, 'external')), resident),
    unreachable: unreachableFromWire(app, 'unreachableStrategy', APP_UNREACHABLE_DEFAULT, resident ? 'apps' : undefined),
    killSelection: killSelectionFromWire(app, 'killSelection'),
    backoff: backoffOf(app),
    roles: resolveRoles({
      roleHolder: app, acceptedHolder: app, id, resident, noun: 'app', emptyAcceptedIsDefault: false,
    }, ctx),
    env: stringMapFromWire(app, 'env', { secretRefs: true }),
    executor: app.string('executor', ''),
    killGraceSeconds: app.optionalNumber('taskKillGracePeriodSeconds', { min: 0 }),
    fetch: appFetchFromWire(app),
  };
}

/**
 * The upgrade strategy an app gets when it gives none (or leaves a field out): `{0, 0}` for a
 * single-instance app (`MARATHON_SINGLE_INSTANCE_APP: "true"`, the only strategy the core accepts
 * for one: groups/single-instance.ts), `{0.5, 0}` with volumes, else `{1, 1}`. Marathon 1.11 fills
 * `{1, 1}` for a labelled app too and then refuses it; pacer fills the one valid value instead.
 */
function upgradeDefaults(labels: ConvertedStringMap, withVolumes: boolean): UpgradePolicy {
  if (isSingleInstance(labels.values)) return SINGLE_INSTANCE_UPGRADE;
  return withVolumes ? RESIDENT_UPGRADE : DEFAULT_UPGRADE;
}

function commandOf(app: WireObject): { cmd?: string; args?: readonly string[] } {
  const cmd = app.optionalString('cmd');
  if (cmd === '') app.fail('cmd', 'must not be an empty string');
  const args = argsOf(app);
  const hasCmd = app.has('cmd');
  const hasArgs = args !== undefined && args.length > 0;
  if (hasCmd && hasArgs) app.sink.add('', CMD_ARGS_CONTAINER_MESSAGE);
  if (!hasCmd && !hasArgs && !app.has('container')) app.sink.add('', CMD_ARGS_CONTAINER_MESSAGE);
  return { ...(cmd !== undefined ? { cmd } : {}), ...(hasArgs ? { args } : {}) };
}

function argsOf(app: WireObject): readonly string[] | undefined {
  const list = app.array('args');
  if (list === undefined) return undefined;
  const strings = list.filter((a): a is string => typeof a === 'string');
  list.forEach((a, i) => {
    if (typeof a !== 'string') app.sink.add(childPointer(app.pathOf('args'), i), 'error.expected.jsstring');
  });
  return strings;
}

function backoffOf(app: WireObject): Backoff {
  return {
    backoffSeconds: app.number('backoffSeconds', 1, { min: 0 }),
    backoffFactor: app.number('backoffFactor', 1.15, { min: 1 }),
    maxLaunchDelaySeconds: app.number('maxLaunchDelaySeconds', 300, { min: 0 }),
  };
}

/** Whether `container.volumes` has a volume with the given kind (`persistent`, `external`). */
function hasVolume(container: WireObject | undefined, kind: 'persistent' | 'external'): boolean {
  const volumes = container?.raw.volumes;
  return Array.isArray(volumes) && volumes.some((v) => isRecord(v) && isRecord(v[kind]));
}

function buildSpec(app: WireObject, p: AppParts & { id: string }, ctx: ConvertContext): AppSpec {
  const versionInfo = { lastScalingAt: ctx.versionIso, lastConfigChangeAt: ctx.versionIso };
  return {
    kind: 'app',
    id: p.id,
    version: ctx.versionIso,
    versionInfo,
    instances: p.instances,
    role: p.roles.role,
    acceptedResourceRoles: p.roles.acceptedResourceRoles,
    constraints: p.constraints.constraints,
    backoff: {
      initialMs: Math.round(p.backoff.backoffSeconds * 1000),
      factor: p.backoff.backoffFactor,
      maxMs: Math.round(p.backoff.maxLaunchDelaySeconds * 1000),
    },
    upgrade: p.upgrade.policy,
    unreachable: p.unreachable.policy,
    killSelection: p.killSelection,
    labels: p.labels.values,
    resident: p.resident,
    ...(p.resident ? { persistentVolumes: p.persistentVolumes } : {}),
    definition: definitionOf(app, p, versionInfo, ctx),
    resources: p.resources.resources,
    hostPorts: p.ports.hostPorts,
    requirePorts: p.ports.requirePorts,
    healthChecks: p.healthChecks.checks,
    ...(p.readinessChecks.checks.length > 0 ? { readinessChecks: p.readinessChecks.checks } : {}),
    killGracePeriodMs: p.killGraceSeconds === undefined ? DEFAULT_KILL_GRACE_MS : Math.round(p.killGraceSeconds * 1000),
    ...(p.cmd !== undefined ? { cmd: p.cmd } : {}),
    ...(p.args !== undefined ? { args: p.args } : {}),
    env: p.env.values,
  };
}

/** The app as Marathon's GET returns it; fields the conversion does not interpret pass through. */
function definitionOf(
  app: WireObject,
  p: AppParts & { id: string },
  versionInfo: AppSpec['versionInfo'],
  ctx: ConvertContext,
): Readonly<Record<string, unknown>> {
  return app.withExtras({
    id: p.id,
    cmd: p.cmd,
    args: p.args,
    env: p.env.wire,
    instances: p.instances,
    ...p.resources.wire,
    executor: p.executor,
    constraints: p.constraints.wire,
    fetch: p.fetch,
    ...p.backoff,
    container: p.ports.containerWire,
    healthChecks: p.healthChecks.wire,
    readinessChecks: p.readinessChecks.wire,
    upgradeStrategy: p.upgrade.wire,
    labels: p.labels.wire,
    acceptedResourceRoles: p.roles.acceptedGiven ? p.roles.acceptedResourceRoles : undefined,
    version: ctx.versionIso,
    versionInfo,
    killSelection: p.killSelection,
    unreachableStrategy: p.unreachable.wire,
    requirePorts: p.ports.requirePorts,
    networks: p.networks.wire,
    portDefinitions: p.ports.portDefinitionsWire,
    ...(p.resident ? { residency: app.raw.residency ?? RESIDENCY_DEFAULT } : {}),
    taskKillGracePeriodSeconds: p.killGraceSeconds,
    role: p.roles.role,
  }, DROPPED_FIELDS);
}
