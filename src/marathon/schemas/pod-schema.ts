/**
 * The shape of a pod definition (body of `POST /v2/pods` and `PUT /v2/pods/{id}`) as a JSON Schema
 * (draft 7; compiled by ajv when pacer is built, src/validation/validator-modules.ts, for
 * pod-shape-errors.ts). It checks what Marathon's RAML reader checks before any semantic rule:
 * JSON types, required fields, numeric bounds, string lengths, name patterns and enumerations
 * (facts 4, 80; the pod, podContainer, resources, network, volumes,
 * healthCheck and artifact types of Marathon 1.11's RAML). Semantic rules (role, unique names,
 * endpoint references, network mode rules …) are the converter's (`podFromWire`).
 *
 * Conventions, as Marathon's reader behaves:
 * - every optional field also accepts `null` (read as absent), so a pod fetched with GET (where
 *   unset scalars are `null`, spec 2.1) can be sent back unchanged;
 * - unknown fields are not rejected: Marathon's generated readers ignore them, and so does the
 *   converter (they are neither stored nor echoed back);
 * - enumerations Marathon matches case-insensitively use the `enumCaseless` keyword;
 * - pacer's maxima (docs/limits.md): every number, string, list and map is bounded.
 */

import { MAX_INSTANCES } from '../../scheduler/model/run-spec-limits';
import { MAX_ID_LENGTH, PATH_ID_PATTERN } from '../../scheduler/index';
import {
  MAX_BACKOFF_FACTOR, MAX_CONSECUTIVE_FAILURES, MAX_ITEMS, MAX_KEY_LENGTH, MAX_RESOURCE, MAX_SECONDS, MAX_STRING_LENGTH,
} from './limits';
import { MESOS_COMMAND, SECCOMP, zeroTo } from './app-schema-parts';

type Schema = Readonly<Record<string, unknown>>;

/** A name (container, endpoint): lowercase letters, digits and `-`, not starting or ending with `-`; at most 63. */
const NAME = { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', minLength: 1, maxLength: 63 };

/**
 * The RAML's `strings.PathId`, as apps and groups check it; `..` segments and reserved last
 * segments are the converter's to reject (with Marathon's messages).
 */
const PATH_ID = { type: 'string', minLength: 1, maxLength: MAX_ID_LENGTH, pattern: PATH_ID_PATTERN };

/** `schema` made optional-nullable: `null` is read as absent (play-json `readNullable`). */
function nullable(schema: Schema): Schema {
  const type = schema.type;
  if (type === undefined) return schema;
  const types = Array.isArray(type) ? type : [type];
  const withNull = { ...schema, type: [...types, 'null'] };
  return Array.isArray(schema.enum) ? { ...withNull, enum: [...(schema.enum as unknown[]), null] } : withNull;
}

/** An object schema whose listed properties are all optional (and nullable). */
function object(properties: Readonly<Record<string, Schema>>, required: readonly string[] = []): Schema {
  const props: Record<string, Schema> = {};
  for (const [key, schema] of Object.entries(properties)) props[key] = required.includes(key) ? schema : nullable(schema);
  return required.length === 0
    ? { type: 'object', properties: props }
    : { type: 'object', properties: props, required: [...required] };
}

const number = (extra: Schema = {}): Schema => ({ type: 'number', ...extra });
const integer = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
/** A string of at most MAX_STRING_LENGTH characters unless `extra` says less. */
const string = (extra: Schema = {}): Schema => ({ type: 'string', maxLength: MAX_STRING_LENGTH, ...extra });
const boolean: Schema = { type: 'boolean' };
/** A list of at most MAX_ITEMS entries unless `extra` says less. */
const array = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, maxItems: MAX_ITEMS, ...extra });
/** A map of at most MAX_ITEMS entries whose keys have at most MAX_KEY_LENGTH characters. */
const keyed = (values: Schema): Schema => ({
  type: 'object', additionalProperties: values, maxProperties: MAX_ITEMS, propertyNames: { maxLength: MAX_KEY_LENGTH },
});
/** A scalar resource from `minimum` up to MAX_RESOURCE. */
const resource = (minimum: number): Schema => number({ minimum, maximum: MAX_RESOURCE });
/** Seconds (whole, or a double where the RAML says `number`) up to MAX_SECONDS. */
const seconds = (minimum = 0): Schema => integer({ minimum, maximum: MAX_SECONDS });
const fractionalSeconds = (): Schema => number({ minimum: 0, maximum: MAX_SECONDS });

/** Labels and the like: string values only. */
const STRING_MAP = keyed(string());

/** Environment variables: a string, or a secret reference `{"secret": "<name>"}`. */
const ENV_MAP = keyed({
  type: ['string', 'object'], maxLength: MAX_STRING_LENGTH, required: ['secret'], properties: { secret: string() },
});

/** Resources of a container (RAML `Resources`): cpus and mem at least 0.001; whole GPUs. */
const RESOURCES = object({
  cpus: resource(0.001),
  mem: resource(0.001),
  disk: resource(0),
  gpus: integer({ minimum: 0, maximum: MAX_RESOURCE }),
});

/** Executor overhead (RAML `ExecutorResources`): never below the default executor's needs. */
const EXECUTOR_RESOURCES = object({
  cpus: resource(0.1),
  mem: resource(32),
  disk: resource(10),
});

const PORT = integer({ minimum: 0, maximum: 65535 });

const ENDPOINT = object({
  name: NAME,
  containerPort: PORT,
  hostPort: PORT,
  protocol: array(string(), { minItems: 1 }),
  labels: STRING_MAP,
}, ['name']);

const SHELL_COMMAND = object({ shell: string() }, ['shell']);

const IMAGE = object({
  // Spec 2.2 names both kinds; the converter checks them (case-sensitive, as it echoes them).
  kind: string(),
  id: string({ minLength: 1, maxLength: 1024 }),
  forcePull: boolean,
  pullConfig: object({ secret: string() }, ['secret']),
  labels: STRING_MAP,
}, ['kind', 'id']);

const TIMING_SECONDS = seconds();

/**
 * `LinuxInfo` (pod and container): its one number, `ipcInfo.shmSize` (MB), bounded as a resource, and
 * `seccomp`'s strings; left open (`additionalProperties`), so that a scenario file's closed schema
 * (sim/scenario/closed-schema.ts) does not refuse the fields the converter reads (`ipcInfo.mode`).
 */
const LINUX_INFO = {
  ...object({ ipcInfo: { ...object({ shmSize: zeroTo(MAX_RESOURCE) }), additionalProperties: true }, seccomp: SECCOMP }),
  additionalProperties: true,
};

/**
 * A container's Mesos `check`: its timings bounded as the health check's and its command's strings
 * and lists as every definition's (`MESOS_COMMAND`); its shape (left open) is the converter's.
 */
const CHECK = {
  ...object({
    exec: { ...object({ command: MESOS_COMMAND }), additionalProperties: true },
    intervalSeconds: zeroTo(MAX_SECONDS), timeoutSeconds: zeroTo(MAX_SECONDS), delaySeconds: zeroTo(MAX_SECONDS),
  }),
  additionalProperties: true,
};

const HEALTH_CHECK = object({
  http: object({
    endpoint: NAME,
    path: string({ minLength: 1, maxLength: 1024 }),
    scheme: string({ enumCaseless: ['HTTP', 'HTTPS'] }),
  }, ['endpoint']),
  tcp: object({ endpoint: NAME }, ['endpoint']),
  exec: object({ command: SHELL_COMMAND }, ['command']),
  gracePeriodSeconds: TIMING_SECONDS,
  intervalSeconds: TIMING_SECONDS,
  maxConsecutiveFailures: integer({ minimum: 0, maximum: MAX_CONSECUTIVE_FAILURES }),
  timeoutSeconds: TIMING_SECONDS,
  delaySeconds: TIMING_SECONDS,
});

const ARTIFACT = object({
  uri: string({ minLength: 1, maxLength: 1024 }),
  extract: boolean,
  executable: boolean,
  cache: boolean,
  destPath: string({ minLength: 1, maxLength: 1024 }),
}, ['uri']);

const VOLUME_MOUNT = object({
  name: NAME,
  mountPath: string({ minLength: 1, maxLength: 1024 }),
  readOnly: boolean,
}, ['name', 'mountPath']);

const CONTAINER = object({
  name: NAME,
  exec: object({ command: SHELL_COMMAND, overrideEntrypoint: boolean }, ['command']),
  resources: RESOURCES,
  resourceLimits: object({ cpus: zeroTo(MAX_RESOURCE), mem: zeroTo(MAX_RESOURCE) }),
  endpoints: array(ENDPOINT),
  image: IMAGE,
  environment: ENV_MAP,
  user: string(),
  healthCheck: HEALTH_CHECK,
  check: CHECK,
  linuxInfo: LINUX_INFO,
  volumeMounts: array(VOLUME_MOUNT),
  artifacts: array(ARTIFACT),
  labels: STRING_MAP,
  lifecycle: object({ killGracePeriodSeconds: fractionalSeconds() }),
}, ['name', 'resources']);

const VOLUME = object({
  name: string({ minLength: 1 }),
  host: string(),
  persistent: object({
    type: string({ enum: ['root', 'path', 'mount'] }),
    size: integer({ minimum: 0, maximum: MAX_RESOURCE }),
    maxSize: integer({ minimum: 0, maximum: MAX_RESOURCE }),
    profileName: string(),
  }, ['size']),
}, ['name']);

const NETWORK = object({
  // The converter decides which modes pods support (spec 2.1.2: host, container).
  mode: string(),
  name: string({ pattern: '^[a-z0-9]([-a-z0-9_]*[a-z0-9])?$', minLength: 1, maxLength: 63 }),
  labels: STRING_MAP,
});

/** A constraint: `[field, operator, value?]` or `{fieldName, operator, value?}` (both occur for pods). */
const CONSTRAINT = {
  type: ['array', 'object'],
  items: string(),
  minItems: 2,
  maxItems: 3,
  required: ['fieldName', 'operator'],
  properties: { fieldName: string(), operator: string(), value: { type: ['string', 'null'], maxLength: MAX_STRING_LENGTH } },
};

const SCHEDULING = object({
  backoff: object({
    backoff: fractionalSeconds(),
    backoffFactor: number({ minimum: 0, maximum: MAX_BACKOFF_FACTOR }),
    maxLaunchDelay: fractionalSeconds(),
  }),
  upgrade: object({
    minimumHealthCapacity: number({ minimum: 0, maximum: 1 }),
    maximumOverCapacity: number({ minimum: 0, maximum: 1 }),
  }),
  placement: object({
    constraints: array(CONSTRAINT),
    acceptedResourceRoles: array(string()),
  }),
  killSelection: string({ enumCaseless: ['YOUNGEST_FIRST', 'OLDEST_FIRST'] }),
  // `"disabled"` or the object (the converter checks the string's value).
  unreachableStrategy: {
    type: ['string', 'object'],
    properties: {
      inactiveAfterSeconds: { type: ['integer', 'null'], minimum: 0, maximum: MAX_SECONDS },
      expungeAfterSeconds: { type: ['integer', 'null'], minimum: 0, maximum: MAX_SECONDS },
    },
  },
});

/** The pod definition. */
export const POD_SCHEMA: Schema = object({
  id: PATH_ID,
  version: string(),
  labels: STRING_MAP,
  environment: ENV_MAP,
  user: string(),
  containers: array(CONTAINER, { minItems: 1 }),
  secrets: keyed(object({ source: string() }, ['source'])),
  volumes: array(VOLUME),
  networks: array(NETWORK),
  scaling: object({
    kind: string({ enumCaseless: ['fixed'] }),
    instances: integer({ minimum: 0, maximum: MAX_INSTANCES }),
    maxInstances: integer({ minimum: 0, maximum: MAX_INSTANCES }),
  }),
  scheduling: SCHEDULING,
  executorResources: EXECUTOR_RESOURCES,
  linuxInfo: LINUX_INFO,
  role: string({ minLength: 1 }),
}, ['id', 'containers']);
