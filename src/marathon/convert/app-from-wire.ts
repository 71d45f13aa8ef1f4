import type { AppSpec, Residency } from '../../scheduler/model/app';
import type { AppContainer } from '../../scheduler/model/app-container';
import { appPortSlots } from '../../scheduler/model/app-ports';
import type { GivenExecutorResources, ResourceLimit, ResourceLimits } from '../../scheduler/model/resource-limits';
import type { UpgradePolicy } from '../../scheduler/model/run-spec';
import type { Secrets } from '../../scheduler/model/secrets';
import { isSingleInstance, javaDouble, SINGLE_INSTANCE_UPGRADE } from '../../scheduler/index';
import { appContainerFromWire } from './app-container-from-wire';
import { appFetchFromWire } from './app-fetch-from-wire';
import { appHealthChecksFromWire } from './app-health-checks-from-wire';
import { appNetworksFromWire } from './app-networks-from-wire';
import { appPortsFromWire } from './app-ports-from-wire';
import { appCheckFromWire } from './checks-from-wire';
import { constraintsFromWire } from './constraints-from-wire';
import type { ConvertContext } from './convert-context';
import type { ConvertResult } from './convert-result';
import { ErrorSink } from './error-sink';
import { appFeatureRules } from './feature-rules';
import { killSelectionFromWire } from './kill-selection-from-wire';
import { pathIdFromWire } from './path-id';
import { readinessChecksFromWire } from './readiness-checks-from-wire';
import { DEFAULT_RESOURCES, exactScalarsOf, milliOf, wireResourcesFrom, type WireResources } from './resources-from-wire';
import { resolveRoles } from './role-rules';
import { stringMapFromWire } from './string-map-from-wire';
import { APP_UNREACHABLE_DEFAULT, unreachableFromWire } from './unreachable-from-wire';
import { DEFAULT_UPGRADE, RESIDENT_UPGRADE, upgradeFromWire } from './upgrade-from-wire';
import { WireObject } from './wire-object';

/** Marathon's message when the app has nothing to run, or both `cmd` and `args` (facts 23). */
export const CMD_ARGS_CONTAINER_MESSAGE =
  "AppDefinition must either contain one of 'cmd' or 'args', and/or a 'container'.";

/** Marathon's default `residency` of an app with persistent volumes (deprecated, no effect). */
const RESIDENCY_DEFAULT: Residency = { relaunchEscalationTimeoutSeconds: 3600, taskLostBehavior: 'WAIT_FOREVER' };

const TASK_LOST_BEHAVIORS = ['WAIT_FOREVER', 'RELAUNCH_AFTER_TIMEOUT'] as const;

/**
 * Converts a Marathon app definition (the body of `POST /v2/apps`, Marathon's `App`) into the
 * core's run spec model ({@link AppSpec}): every Marathon 1.11 default filled (facts table L, spec
 * 2.4–2.7), deprecated fields read into their successors, units converted (milli-units,
 * milliseconds), ports and host ports derived from the networking. Read-only response fields
 * (`tasks`, counts, `deployments`, …) and fields Marathon's `App` does not have are ignored, as
 * Marathon's reader ignores them. All semantic problems are collected and returned with their JSON
 * pointers.
 */
export function appFromWire(json: unknown, ctx: ConvertContext): ConvertResult<AppSpec> {
  const sink = new ErrorSink();
  const app = WireObject.of(json, '', sink);
  if (app === undefined) return { ok: false, errors: sink.details() };
  const spec = readApp(app, ctx);
  if (sink.failed || spec === undefined) return { ok: false, errors: sink.details() };
  return { ok: true, spec };
}

function readApp(app: WireObject, ctx: ConvertContext): AppSpec | undefined {
  // Read in the order problems have always been reported in.
  const id = pathIdFromWire(app);
  const containerObj = app.child('container');
  const networks = appNetworksFromWire(app, containerObj, ctx);
  const ports = appPortsFromWire(app, containerObj, networks.mode, networks.discoveryMappings, ctx.storedRecord === true ? undefined : networks.networks);
  const container = appContainerFromWire(containerObj, {
    portMappings: ports.portMappings, needsOne: networks.mode !== 'host', secretNames: secretNamesOf(app), storedRecord: ctx.storedRecord === true,
  });
  const resident = hasVolume(container, 'persistent');
  const slots = appPortSlots({ networks: networks.networks, portDefinitions: ports.portDefinitions, container });
  const labels = stringMapFromWire(app, 'labels').values;
  const command = commandOf(app);
  const instances = app.number('instances', 1, { min: 0, integer: true });
  const wireResources = wireResourcesFrom(app, DEFAULT_RESOURCES);
  const resources = milliOf(wireResources);
  // Marathon's rules added after pacer accepted definitions without them: not for stored records.
  const requestRules = ctx.storedRecord !== true;
  const healthChecks = appHealthChecksFromWire(app, slots, requestRules ? container?.type === 'DOCKER' : undefined);
  const readinessChecks = readinessChecksFromWire(app, slots);
  const constraints = constraintsFromWire(app, 'constraints');
  const upgrade = upgradeFromWire(app, 'upgradeStrategy', upgradeDefaults(labels, resident || hasVolume(container, 'external')), resident);
  const unreachable = unreachableFromWire(app, 'unreachableStrategy', APP_UNREACHABLE_DEFAULT, resident ? 'apps' : undefined);
  const killSelection = killSelectionFromWire(app, 'killSelection');
  const backoff = backoffOf(app);
  const roles = resolveRoles({ roleHolder: app, acceptedHolder: app, id, resident, noun: 'app', emptyAcceptedIsDefault: false }, ctx);
  const secrets = secretsFromWire(app);
  const env = stringMapFromWire(app, 'env', { secretRefs: true, declaredSecrets: new Set(Object.keys(secrets)), nonEmptyNames: requestRules });
  const executor = app.string('executor', '');
  const killGraceSeconds = app.optionalNumber('taskKillGracePeriodSeconds', { min: 0 });
  const fetch = appFetchFromWire(app, requestRules);
  const spec: AppSpec = {
    kind: 'app',
    id: id ?? '/',
    version: ctx.versionIso,
    versionInfo: { lastScalingAt: ctx.versionIso, lastConfigChangeAt: ctx.versionIso },
    instances,
    role: roles.role,
    acceptedResourceRoles: roles.acceptedResourceRoles,
    constraints,
    backoff,
    upgrade,
    unreachable,
    killSelection,
    labels,
    resident,
    ...command,
    ...optional('container', container),
    ...optional('user', app.optionalString('user')),
    env: env.values,
    envSecrets: env.secrets,
    secrets,
    fetch,
    executor,
    ...optional('tty', app.optionalBoolean('tty')),
    resources,
    ...optional('exactResources', exactScalarsOf(wireResources)),
    ...optional('resourceLimits', resourceLimitsFromWire(app, requestRules ? wireResources : undefined)),
    ...optional('executorResources', givenExecutorResources(app)),
    networks: networks.networks,
    portDefinitions: ports.portDefinitions,
    requirePorts: ports.requirePorts,
    hostPorts: ports.hostPorts,
    healthChecks,
    ...(readinessChecks.length > 0 ? { readinessChecks } : {}),
    ...optional('check', appCheckFromWire(app)),
    ...(killGraceSeconds === undefined ? {} : { killGracePeriodMs: Math.round(killGraceSeconds * 1000) }),
    dependencies: app.optionalStrings('dependencies') ?? [],
    ...optional('residency', residencyOf(app, resident)),
  };
  if (requestRules) appDefinitionRules(app, { container, slots, labels, executor });
  appFeatureRules(app, {
    gpus: resources.gpus, containerType: container?.type, secretCount: Object.keys(secrets).length, envSecretCount: Object.keys(env.secrets).length,
  }, ctx);
  return id === undefined ? undefined : spec;
}

/** Marathon's executor pattern (`AppDefinition.validBasicAppDefinition`), matched in full: `//cmd`, a path without empty segments, or nothing. */
const EXECUTOR_PATTERN = '^(//cmd)|(/?[^/]+(/[^/]+)*)|$';
const EXECUTOR = new RegExp(`^(?:${EXECUTOR_PATTERN})$`);

/** Marathon's message for the DC/OS migration labels (`AppValidation.complyWithMigrationAPI`). */
export const MIGRATION_API_MESSAGE = 'DCOS_PACKAGE_FRAMEWORK_NAME and DCOS_MIGRATION_API_PATH must be defined when using DCOS_MIGRATION_API_VERSION';

/**
 * Marathon's rules on the app as a whole that pacer added after accepting apps without them (so
 * for a definition a client sends, not a stored record), at Marathon's paths: a `check` is not for
 * a `DOCKER` container (`/`; the Docker executor runs no Mesos check) and its `portIndex` addresses
 * a port (`/check`); `executor` is `//cmd`, a path without empty segments, or empty (`/executor`);
 * a `DCOS_MIGRATION_API_VERSION` label is `v1` with `DCOS_PACKAGE_FRAMEWORK_NAME` and
 * `DCOS_MIGRATION_API_PATH` (`/`).
 */
function appDefinitionRules(
  app: WireObject,
  facts: { container: AppContainer | undefined; slots: readonly unknown[]; labels: Readonly<Record<string, string>>; executor: string },
): void {
  const check = app.child('check');
  if (check !== undefined && facts.container?.type === 'DOCKER') app.sink.add('', "AppDefinition must not use 'checks' if using docker");
  for (const kind of ['http', 'tcp']) {
    const portIndex = check?.child(kind)?.raw.portIndex;
    if (typeof portIndex === 'number' && portIndex >= facts.slots.length) {
      app.fail('check', 'check port index must address an element of the ports array or container port mappings.');
    }
  }
  if (!EXECUTOR.test(facts.executor)) app.fail('executor', `must fully match regular expression '${EXECUTOR_PATTERN}'`);
  const version = facts.labels.DCOS_MIGRATION_API_VERSION;
  const migrationOk = version === undefined || version === ''
    || (version === 'v1' && (facts.labels.DCOS_PACKAGE_FRAMEWORK_NAME ?? '') !== '' && (facts.labels.DCOS_MIGRATION_API_PATH ?? '') !== '');
  if (!migrationOk) app.sink.add('', MIGRATION_API_MESSAGE);
}

/** `{[key]: value}` when the value is defined, else `{}`: optional fields stay absent, never undefined. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * The upgrade strategy an app gets when it gives none (or leaves a field out): `{0, 0}` for a
 * single-instance app (`MARATHON_SINGLE_INSTANCE_APP: "true"`, the only strategy the core accepts
 * for one: groups/single-instance.ts), `{0.5, 0}` with volumes, else `{1, 1}`. Marathon 1.11 fills
 * `{1, 1}` for a labelled app too and then refuses it; pacer fills the one valid value instead.
 */
function upgradeDefaults(labels: Readonly<Record<string, string>>, withVolumes: boolean): UpgradePolicy {
  if (isSingleInstance(labels)) return SINGLE_INSTANCE_UPGRADE;
  return withVolumes ? RESIDENT_UPGRADE : DEFAULT_UPGRADE;
}

function commandOf(app: WireObject): { cmd?: string; args?: readonly string[] } {
  const cmd = app.optionalString('cmd');
  if (cmd === '') app.fail('cmd', 'must not be an empty string');
  const args = app.optionalStrings('args');
  const hasCmd = app.has('cmd');
  const hasArgs = args !== undefined && args.length > 0;
  if (hasCmd && hasArgs) app.sink.add('', CMD_ARGS_CONTAINER_MESSAGE);
  if (!hasCmd && !hasArgs && !app.has('container')) app.sink.add('', CMD_ARGS_CONTAINER_MESSAGE);
  return { ...(cmd !== undefined ? { cmd } : {}), ...(hasArgs ? { args } : {}) };
}

function backoffOf(app: WireObject): AppSpec['backoff'] {
  const backoffSeconds = app.number('backoffSeconds', 1, { min: 0 });
  const backoffFactor = app.number('backoffFactor', 1.15, { min: 1 });
  const maxLaunchDelaySeconds = app.number('maxLaunchDelaySeconds', 300, { min: 0 });
  return { initialMs: Math.round(backoffSeconds * 1000), factor: backoffFactor, maxMs: Math.round(maxLaunchDelaySeconds * 1000) };
}

/** Whether the container has a volume of the given kind (`persistent`, `external`). */
function hasVolume(container: AppContainer | undefined, kind: 'persistent' | 'external'): boolean {
  return container?.volumes?.some((v) => v.kind === kind) === true;
}

/**
 * The names `secrets` declares, read before `secrets` itself is (and whatever its entries hold):
 * what a reference (a `pullConfig`, a secret volume) is checked against, as Marathon's
 * `secrets.contains(name)` checks it.
 */
export function secretNamesOf(holder: WireObject): ReadonlySet<string> {
  const raw = holder.raw.secrets;
  return new Set(typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? Object.keys(raw) : []);
}

/** `secrets`: name → `{source}` (Marathon's `Secrets`). */
export function secretsFromWire(holder: WireObject): Secrets {
  const obj = holder.child('secrets');
  const out: Record<string, { source: string }> = {};
  for (const name of Object.keys(obj?.raw ?? {})) {
    const source = obj?.child(name)?.requiredString('source');
    if (source !== undefined) out[name] = { source };
  }
  return out;
}

/**
 * `resourceLimits`: `cpus` and `mem`, each a number or `unlimited`. With `requested` (the
 * resources asked for, of a definition a client sends), a number below what is asked for is
 * refused, as Marathon's `AppValidation.validResourceLimits` (for apps and pod containers alike):
 * a limit below the request is one Mesos cannot apply.
 */
export function resourceLimitsFromWire(holder: WireObject, requested?: WireResources): ResourceLimits | undefined {
  const limits = holder.child('resourceLimits');
  if (limits === undefined) return undefined;
  const out: { cpus?: ResourceLimit; mem?: ResourceLimit } = {};
  for (const key of ['cpus', 'mem'] as const) {
    const raw = limits.raw[key];
    if (raw === 'unlimited') out[key] = raw;
    else if (raw !== undefined && raw !== null) {
      const value = limits.optionalNumber(key, { min: 0 });
      if (value !== undefined) out[key] = value;
      // The request as written (Marathon compares its doubles), not the core's thousandths.
      const asked = requested?.[key];
      if (value !== undefined && asked !== undefined && value < asked) {
        limits.fail(key, `resource limit must be greater than or equal to requested resource (${javaDouble(asked)})`);
      }
    }
  }
  return out;
}

function givenExecutorResources(app: WireObject): GivenExecutorResources | undefined {
  const given = app.child('executorResources');
  if (given === undefined) return undefined;
  // A field not given takes Marathon's default (RAML ExecutorResources: cpus 0.1, mem 32, disk 10).
  return {
    cpus: given.optionalNumber('cpus', { min: 0 }) ?? 0.1,
    mem: given.optionalNumber('mem', { min: 0 }) ?? 32,
    disk: given.optionalNumber('disk', { min: 0 }) ?? 10,
  };
}

/** `residency` as given; Marathon's default for a resident app that gives none. */
function residencyOf(app: WireObject, resident: boolean): Residency | undefined {
  const given = app.child('residency');
  if (given === undefined) return resident ? RESIDENCY_DEFAULT : undefined;
  const timeout = given.optionalNumber('relaunchEscalationTimeoutSeconds', { min: 0, integer: true });
  const behavior = given.optionalString('taskLostBehavior');
  const known = TASK_LOST_BEHAVIORS.find((b) => b === behavior);
  if (behavior !== undefined && known === undefined) given.fail('taskLostBehavior', `taskLostBehavior must be one of ${TASK_LOST_BEHAVIORS.join(', ')}`);
  return {
    ...(timeout === undefined ? {} : { relaunchEscalationTimeoutSeconds: timeout }),
    ...(known === undefined ? {} : { taskLostBehavior: known }),
  };
}
