import {
  ANY_PORT, ARTIFACT, BOOL, CHECK, CONSTRAINT, CONTAINER, ENV, EXECUTOR_RESOURCES, HEALTH_CHECK, KV_LABELS,
  NETWORK, PATH_ID, PORT_DEFINITION, READINESS_CHECK, RESIDENCY, RESOURCE_LIMITS, SECRETS, type SchemaNode,
  UNREACHABLE_STRATEGY, UPGRADE_STRATEGY, URI, VERSION_INFO, arr, backoffFactor, int, obj, resource, seconds, str,
  wholeResource,
} from './app-schema-parts';
import { MAX_INSTANCES } from '../../scheduler/model/run-spec-limits';

/**
 * The properties of Marathon's `App` RAML type (`docs/…/types/app.raml`, Marathon 1.11) with
 * their shape rules: fact 24 (`instances`, `cpus`, `mem` minimums), fact 25 (`id` a string), fact 26
 * (`id` pattern), fact 27 (`upgradeStrategy` shares in [0, 1]), fact 32 (constraint arity),
 * fact 118 (`cmd` not empty), and pacer's maxima (docs/limits.md). Read-only response fields (`tasks`, counts, `deployments`, …) are
 * not listed: they are ignored on input, as Marathon ignores them.
 */
const APP_PROPERTIES: Readonly<Record<string, SchemaNode>> = {
  id: PATH_ID,
  acceptedResourceRoles: arr(str()),
  args: arr(str()),
  backoffFactor: backoffFactor(1),
  backoffSeconds: seconds(),
  cmd: str({ minLength: 1 }),
  constraints: arr(CONSTRAINT),
  container: CONTAINER,
  cpus: resource(0.001),
  dependencies: arr(PATH_ID),
  disk: resource(),
  env: ENV,
  executor: str(),
  executorResources: EXECUTOR_RESOURCES,
  fetch: arr(ARTIFACT),
  healthChecks: arr(HEALTH_CHECK),
  check: CHECK,
  instances: int(0, MAX_INSTANCES),
  labels: KV_LABELS,
  maxLaunchDelaySeconds: seconds(),
  mem: resource(),
  gpus: wholeResource(),
  ipAddress: { type: 'object' },
  networks: arr(NETWORK),
  ports: arr(ANY_PORT),
  portDefinitions: arr(PORT_DEFINITION),
  readinessChecks: arr(READINESS_CHECK),
  residency: RESIDENCY,
  resourceLimits: RESOURCE_LIMITS,
  requirePorts: BOOL,
  secrets: SECRETS,
  taskKillGracePeriodSeconds: seconds(),
  upgradeStrategy: UPGRADE_STRATEGY,
  uris: arr(URI),
  user: str(),
  version: str(),
  versionInfo: VERSION_INFO,
  killSelection: str(),
  unreachableStrategy: UNREACHABLE_STRATEGY,
  tty: BOOL,
  role: str({ minLength: 1 }),
};

/** An app definition as `POST /v2/apps` and full replacements take it: `id` is required (fact 25). */
export const APP_SCHEMA: SchemaNode = obj(APP_PROPERTIES, ['id']);

/**
 * An `AppUpdate` (RAML `pragma.generateUpdateType`): the same fields, all optional — the body of a
 * partial `PUT`/`PATCH /v2/apps/{id}` and of the elements of `PUT`/`PATCH /v2/apps`.
 */
export const APP_UPDATE_SCHEMA: SchemaNode = obj(APP_PROPERTIES);
