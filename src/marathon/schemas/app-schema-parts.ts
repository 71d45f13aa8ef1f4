/**
 * Building blocks of the app JSON Schema ({@link ./app-schema}), transcribed from the facts of
 * Marathon 1.11's RAML types (`docs/…/types/*.raml`, fact 4): types, required fields, numeric
 * ranges, string lengths and patterns. Objects allow properties the RAML does not list (RAML's
 * default, and Marathon's generated readers ignore unknown fields). Where the converter already
 * checks a value case-insensitively or knows more names than the RAML (health check `protocol`,
 * `killSelection`, network `mode`), the schema only checks the type, so the converter's
 * semantic message wins.
 */

import { MAX_ID_LENGTH, PATH_ID_PATTERN } from '../../scheduler/index';
import {
  MAX_BACKOFF_FACTOR, MAX_CONSECUTIVE_FAILURES, MAX_ITEMS, MAX_KEY_LENGTH, MAX_RESOURCE, MAX_SECONDS, MAX_STRING_LENGTH,
} from './limits';

/** A JSON Schema node (ajv's draft-07 vocabulary). */
export type SchemaNode = Readonly<Record<string, unknown>>;

/** A string, with optional length bounds and pattern; at most {@link MAX_STRING_LENGTH} unless `extra` says less. */
export function str(extra: SchemaNode = {}): SchemaNode {
  return { type: 'string', maxLength: MAX_STRING_LENGTH, ...extra };
}

/** An integer (RAML `integer`, int32/int64), optionally bounded. */
export function int(minimum?: number, maximum?: number): SchemaNode {
  return { type: 'integer', ...(minimum !== undefined ? { minimum } : {}), ...(maximum !== undefined ? { maximum } : {}) };
}

/** A number (RAML `number`, double), optionally bounded. */
export function num(minimum?: number, maximum?: number): SchemaNode {
  return { type: 'number', ...(minimum !== undefined ? { minimum } : {}), ...(maximum !== undefined ? { maximum } : {}) };
}

export const BOOL: SchemaNode = { type: 'boolean' };

/** An array of `items`, with optional `minItems`/`maxItems`; at most {@link MAX_ITEMS} unless `extra` says less. */
export function arr(items: SchemaNode, extra: SchemaNode = {}): SchemaNode {
  return { type: 'array', items, maxItems: MAX_ITEMS, ...extra };
}

/** A map (JSON object) from keys of at most {@link MAX_KEY_LENGTH} characters to `values`, at most {@link MAX_ITEMS} entries. */
export function keyed(values: SchemaNode): SchemaNode {
  return { type: 'object', additionalProperties: values, maxProperties: MAX_ITEMS, propertyNames: { maxLength: MAX_KEY_LENGTH } };
}

/** A string of at most {@link MAX_STRING_LENGTH} characters; any other type is the converter's to judge. */
const BOUNDED_STRING: SchemaNode = { if: { type: 'string' }, then: { type: 'string', maxLength: MAX_STRING_LENGTH } };

/** A list of at most {@link MAX_ITEMS} such strings; any other type is the converter's to judge. */
const BOUNDED_STRINGS: SchemaNode = { if: { type: 'array' }, then: { type: 'array', maxItems: MAX_ITEMS, items: BOUNDED_STRING } };

/** A map of at most {@link MAX_ITEMS} such strings, keys of at most {@link MAX_KEY_LENGTH}; any other type is the converter's. */
const BOUNDED_MAP: SchemaNode = {
  if: { type: 'object' },
  then: { type: 'object', maxProperties: MAX_ITEMS, propertyNames: { maxLength: MAX_KEY_LENGTH }, additionalProperties: BOUNDED_STRING },
};

/*
 * Parts of a definition Marathon's RAML shapes but these schemas leave to the converter, bounded
 * only (docs/limits.md, "Sizes"): their types and messages stay the converter's, and they stay open
 * (`additionalProperties`), so a scenario file's closed schema (sim/scenario/closed-schema.ts)
 * refuses nothing it took before.
 */

/** A Mesos command (`MesosCommand`: `shell` or `argv`), of an app's or a pod container's `check`. */
export const MESOS_COMMAND: SchemaNode = {
  type: 'object', additionalProperties: true, properties: { shell: BOUNDED_STRING, argv: BOUNDED_STRINGS },
};

/** `LinuxInfo.seccomp`. */
export const SECCOMP: SchemaNode = { type: 'object', additionalProperties: true, properties: { profileName: BOUNDED_STRING } };

/** An external volume's `options`: DVDI's map of strings, or CSI's plugin, capability and maps. */
const EXTERNAL_OPTIONS: SchemaNode = {
  type: 'object', maxProperties: MAX_ITEMS, propertyNames: { maxLength: MAX_KEY_LENGTH }, additionalProperties: BOUNDED_STRING,
  properties: {
    pluginName: BOUNDED_STRING,
    capability: {
      if: { type: 'object' },
      then: {
        type: 'object', additionalProperties: true,
        properties: { accessMode: BOUNDED_STRING, accessType: BOUNDED_STRING, fsType: BOUNDED_STRING, mountFlags: BOUNDED_STRINGS },
      },
    },
    nodeStageSecret: BOUNDED_MAP, nodePublishSecret: BOUNDED_MAP, volumeContext: BOUNDED_MAP,
  },
};

/** A number from 0 to `maximum` (`error.min`, `error.max` as every range); any other type is the converter's to judge. */
export function zeroTo(maximum: number): SchemaNode {
  return { if: { type: 'number' }, then: { type: 'number', minimum: 0, maximum } };
}

/** A duration in whole seconds: `minimum` up to {@link MAX_SECONDS}. */
export function seconds(minimum = 0): SchemaNode {
  return int(minimum, MAX_SECONDS);
}

/** A scalar resource: `minimum` up to {@link MAX_RESOURCE}. */
export function resource(minimum = 0): SchemaNode {
  return num(minimum, MAX_RESOURCE);
}

/** A whole-number resource (gpus, volume sizes in MiB): `minimum` up to {@link MAX_RESOURCE}. */
export function wholeResource(minimum = 0): SchemaNode {
  return int(minimum, MAX_RESOURCE);
}

/** A launch backoff factor: `minimum` up to {@link MAX_BACKOFF_FACTOR}. */
export function backoffFactor(minimum: number): SchemaNode {
  return num(minimum, MAX_BACKOFF_FACTOR);
}

/** An object with the given known properties; others are allowed. */
export function obj(properties: Readonly<Record<string, SchemaNode>>, required: readonly string[] = []): SchemaNode {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** One of the listed strings (a RAML enum). */
export function oneOfStrings(values: readonly string[]): SchemaNode {
  return { type: 'string', enum: values };
}

/** `numbers.AnyPort`: 0–65535 (0 = dynamic). */
export const ANY_PORT = int(0, 65535);

/** `strings.PathId`: the core's one id pattern (`PATH_ID_PATTERN`, src/scheduler/groups/path-id.ts), at most `MAX_ID_LENGTH` characters. */
export const PATH_ID = str({ minLength: 1, maxLength: MAX_ID_LENGTH, pattern: PATH_ID_PATTERN });

/** `strings.LegacyName`: port and port-mapping names. */
export const LEGACY_NAME = str({ minLength: 1, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' });

/** `strings.Name`: DNS-label names (network names of port mappings). */
export const NAME = str({ minLength: 1, maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' });

/** `strings.NetworkName`: like Name, `_` allowed inside. */
export const NETWORK_NAME = str({ minLength: 1, maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9_]*[a-z0-9])?$' });

/** `strings.NetworkProtocol`. */
export const NETWORK_PROTOCOL = oneOfStrings(['tcp', 'udp', 'udp,tcp']);

/** `label.KVLabels`: string values. */
export const KV_LABELS: SchemaNode = keyed(str());

/** `strings.Uri` / `strings.Path`: 1–1024 characters. */
export const URI = str({ minLength: 1, maxLength: 1024 });

/** `constraint.AppConstraint`: `[field, operator]` or `[field, operator, value]`. */
export const CONSTRAINT = arr(str(), { minItems: 2, maxItems: 3 });

/** `network.PortDefinition`. */
export const PORT_DEFINITION = obj({ port: ANY_PORT, labels: KV_LABELS, name: LEGACY_NAME, protocol: NETWORK_PROTOCOL });

/** `appContainer.ContainerPortMapping`. */
export const PORT_MAPPING = obj({
  containerPort: ANY_PORT, hostPort: ANY_PORT, servicePort: ANY_PORT, labels: KV_LABELS,
  name: LEGACY_NAME, protocol: NETWORK_PROTOCOL, networkNames: arr(NAME),
});

/** `network.Network`; `mode` is checked by the converter. */
export const NETWORK = obj({ name: NETWORK_NAME, mode: str(), labels: KV_LABELS });

/** `health.AppHealthCheck`; `protocol` is checked by the converter (any case, MESOS_ names and their AGENT_ aliases). */
export const HEALTH_CHECK = obj({
  command: obj({ value: str() }, ['value']),
  gracePeriodSeconds: seconds(), intervalSeconds: seconds(), maxConsecutiveFailures: int(0, MAX_CONSECUTIVE_FAILURES),
  timeoutSeconds: seconds(), delaySeconds: seconds(),
  ignoreHttp1xx: BOOL, path: str(), port: ANY_PORT, portIndex: ANY_PORT, protocol: str(),
  ipProtocol: oneOfStrings(['IPv4', 'IPv6']),
});

/** `readiness.ReadinessCheck`. */
export const READINESS_CHECK = obj({
  name: str({ minLength: 1 }), protocol: oneOfStrings(['HTTP', 'HTTPS']), path: URI, portName: LEGACY_NAME,
  intervalSeconds: seconds(), timeoutSeconds: seconds(1),
  httpStatusCodesForReady: arr(int(100, 999), { minItems: 1 }), preserveLastResponse: BOOL,
});

/** `artifact.Artifact`. */
export const ARTIFACT = obj({ uri: URI, extract: BOOL, executable: BOOL, cache: BOOL, destPath: URI }, ['uri']);

/**
 * `UpgradeStrategy`: both shares in [0, 1] (fact 27), and both required when it is given: Marathon's
 * app.raml lists both without a default and its generated reader answers a missing one 422
 * `error.path.missing` (fact 27's "most likely", checked in the RAML type generator's required fields).
 */
export const UPGRADE_STRATEGY = obj({ minimumHealthCapacity: num(0, 1), maximumOverCapacity: num(0, 1) }, ['minimumHealthCapacity', 'maximumOverCapacity']);

/** `unreachableStrategy`: the string `disabled` or `{inactiveAfterSeconds, expungeAfterSeconds}` (fact 33). */
export const UNREACHABLE_STRATEGY: SchemaNode = {
  if: { type: 'string' },
  then: { enum: ['disabled'] },
  else: obj({ inactiveAfterSeconds: seconds(), expungeAfterSeconds: seconds() }),
};

/** `env.LegacyEnvVars`: a string, or `{"secret": "<name>"}`. */
export const ENV: SchemaNode = keyed({ if: { type: 'object' }, then: obj({ secret: str() }, ['secret']), else: str() });

/** `secrets.Secrets`: name → `{source}`. */
export const SECRETS: SchemaNode = keyed(obj({ source: str({ minLength: 1 }) }, ['source']));

/** `resources.ExecutorResources`. */
export const EXECUTOR_RESOURCES = obj({ cpus: resource(0.1), mem: resource(32), disk: resource(10) });

/** `resources.ResourceLimit`: a number or `unlimited`. */
const RESOURCE_LIMIT: SchemaNode = { if: { type: 'string' }, then: { enum: ['unlimited'] }, else: resource() };
export const RESOURCE_LIMITS = obj({ cpus: RESOURCE_LIMIT, mem: RESOURCE_LIMIT });

/** `AppResidency` (deprecated, no effect). */
export const RESIDENCY = obj({
  relaunchEscalationTimeoutSeconds: seconds(),
  taskLostBehavior: oneOfStrings(['WAIT_FOREVER', 'RELAUNCH_AFTER_TIMEOUT']),
});

/** `versionInfo.VersionInfo` (read-only; accepted and ignored on input). */
export const VERSION_INFO = obj({ lastScalingAt: str(), lastConfigChangeAt: str() });

const HTTP_SCHEME = oneOfStrings(['HTTP', 'HTTPS']);

/** `check.AppCheck`. */
export const CHECK = obj({
  http: obj({ portIndex: ANY_PORT, port: ANY_PORT, path: URI, scheme: HTTP_SCHEME }),
  tcp: obj({ portIndex: ANY_PORT, port: ANY_PORT }),
  exec: obj({ command: MESOS_COMMAND }, ['command']),
  intervalSeconds: seconds(), timeoutSeconds: seconds(), delaySeconds: seconds(),
});

/** `volumes.AppVolume` (host, persistent, external, secret volumes). */
export const VOLUME = obj({
  containerPath: str({ minLength: 1 }),
  hostPath: str({ minLength: 1 }),
  mode: oneOfStrings(['RO', 'RW']),
  persistent: obj({
    type: oneOfStrings(['root', 'path', 'mount']), size: wholeResource(), maxSize: wholeResource(),
    profileName: str(), constraints: arr(CONSTRAINT),
  }, ['size']),
  // DVDI or CSI: bounded here, judged by the converter.
  external: { type: 'object', additionalProperties: true, properties: { name: BOUNDED_STRING, provider: BOUNDED_STRING, size: zeroTo(MAX_RESOURCE), options: EXTERNAL_OPTIONS } },
  secret: str(),
}, ['containerPath']);

/** `appContainer.DockerContainer`. */
export const DOCKER = obj({
  image: str({ minLength: 1 }),
  forcePullImage: BOOL,
  privileged: BOOL,
  network: oneOfStrings(['BRIDGE', 'HOST', 'NONE', 'USER']),
  parameters: arr(obj({ key: str({ minLength: 1 }), value: str() }, ['key', 'value'])),
  portMappings: arr(PORT_MAPPING),
  credential: obj({ principal: str(), secret: str() }, ['principal']),
  pullConfig: obj({ secret: str() }, ['secret']),
}, ['image']);

/** `appContainer.Container`. */
export const CONTAINER = obj({
  type: oneOfStrings(['MESOS', 'DOCKER']),
  docker: DOCKER,
  // Its one number, `ipcInfo.shmSize` (MB), bounded as a resource; the rest is the converter's (left
  // open, as a scenario file's closed schema must not refuse `seccomp` or `ipcInfo.mode`).
  linuxInfo: {
    type: 'object', additionalProperties: true,
    properties: { ipcInfo: { additionalProperties: true, properties: { shmSize: zeroTo(MAX_RESOURCE) } }, seccomp: SECCOMP },
  },
  volumes: arr(VOLUME),
  portMappings: arr(PORT_MAPPING),
});
