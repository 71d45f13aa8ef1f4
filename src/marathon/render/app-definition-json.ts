import type { AppSpec } from '../../scheduler/model/app';
import { networkModeOf } from '../../scheduler/model/networks';
import { appContainerJson } from './app-container-json';
import { checkJson } from './checks-json';
import { envJson } from './env-json';
import { artifactJson } from './fetch-json';
import { healthCheckJson } from './health-check-json';
import { isEmptyMap, seconds } from './json-helpers';
import { appNetworkJson } from './networks-json';
import { appConstraintJson, unreachableJson, upgradeJson } from './policies-json';
import { portDefinitionJson } from './ports-json';
import { readinessCheckJson } from './readiness-check-json';
import { resourcesJson } from './scalars-json';

/** Options of {@link appDefinitionJson}. */
export interface AppDefinitionJsonOptions {
  /**
   * Write `versionInfo` (default true). Marathon writes it only for a versioned app: the 201 of
   * `POST /v2/apps` and the create's `api_post_event` carry the app before it is stored
   * (`VersionInfo.OnlyVersion`), so without it (fact 18; `api/v2/AppsResource.scala` create).
   */
  readonly versionInfo?: boolean;
}

/**
 * An app as Marathon 1.11's app writer writes it (`raml/AppConversion.scala` appWriter, with the
 * generated RAML writers of `type-generator/.../ObjectVisitor.scala`), from the model: every
 * default, `version` and `versionInfo` of this version, and
 *
 * - no `null` (unset optional fields are left out);
 * - the omit-if-empty fields of the RAML `App` (`(pragma.omitEmpty)`: `args`, `constraints`,
 *   `dependencies`, `env`, `fetch`, `healthChecks`, `readinessChecks`, `secrets`) and
 *   `acceptedResourceRoles` (written by `appWriter` only when non-empty) left out when empty;
 * - inside, the omit-if-empty fields of the nested types: `portDefinitions[].labels` and
 *   `networks[].labels` (`types/network.raml`), `container.portMappings[].networkNames`
 *   (`types/appContainer.raml`).
 *
 * `labels` is always written (`{}` when empty), as are `networks`, and `portDefinitions` under
 * host networking (fact 18, table L); `container.portMappings` under container and bridge
 * networking. Every view of an app goes through here: `/v2/apps`, groups, versions, the queue,
 * `api_post_event`, the plans of deployment events, and the store (which keeps apps as this JSON).
 * Pods keep the spec's own rule ({@link podDefinitionJson}).
 */
export function appDefinitionJson(app: AppSpec, options: AppDefinitionJsonOptions = {}): Record<string, unknown> {
  const mode = networkModeOf(app.networks);
  const json: Record<string, unknown> = { id: app.id };
  if (app.cmd !== undefined) json.cmd = app.cmd;
  if (app.args !== undefined && app.args.length > 0) json.args = [...app.args];
  if (!isEmptyMap(app.env) || !isEmptyMap(app.envSecrets)) json.env = envJson(app.env, app.envSecrets);
  json.instances = app.instances;
  Object.assign(json, resourcesJson(app.resources, app.exactResources));
  json.executor = app.executor;
  if (app.constraints.length > 0) json.constraints = app.constraints.map(appConstraintJson);
  if (app.fetch.length > 0) json.fetch = app.fetch.map(artifactJson);
  json.backoffSeconds = seconds(app.backoff.initialMs);
  json.backoffFactor = app.backoff.factor;
  json.maxLaunchDelaySeconds = seconds(app.backoff.maxMs);
  if (app.container !== undefined) json.container = appContainerJson(app.container, mode);
  if (app.healthChecks.length > 0) json.healthChecks = app.healthChecks.map(healthCheckJson);
  if (app.readinessChecks !== undefined && app.readinessChecks.length > 0) json.readinessChecks = app.readinessChecks.map(readinessCheckJson);
  json.upgradeStrategy = upgradeJson(app.upgrade);
  json.labels = { ...app.labels };
  if (app.acceptedResourceRoles.length > 0) json.acceptedResourceRoles = [...app.acceptedResourceRoles];
  json.version = app.version;
  if (options.versionInfo !== false) json.versionInfo = { ...app.versionInfo };
  json.killSelection = app.killSelection;
  json.unreachableStrategy = unreachableJson(app.unreachable);
  json.requirePorts = app.requirePorts;
  json.networks = app.networks.map(appNetworkJson);
  if (mode === 'host') json.portDefinitions = app.portDefinitions.map(portDefinitionJson);
  if (app.residency !== undefined) json.residency = { ...app.residency };
  if (app.killGracePeriodMs !== undefined) json.taskKillGracePeriodSeconds = seconds(app.killGracePeriodMs);
  json.role = app.role;
  if (app.dependencies.length > 0) json.dependencies = [...app.dependencies];
  if (app.user !== undefined) json.user = app.user;
  if (!isEmptyMap(app.secrets)) json.secrets = secretsJson(app.secrets);
  if (app.check !== undefined) json.check = checkJson(app.check);
  if (app.executorResources !== undefined) json.executorResources = { ...app.executorResources };
  if (app.resourceLimits !== undefined) json.resourceLimits = { ...app.resourceLimits };
  if (app.tty !== undefined) json.tty = app.tty;
  return json;
}

/** `secrets`: name → `{source}`. */
export function secretsJson(secrets: AppSpec['secrets']): Record<string, { source: string }> {
  const json: Record<string, { source: string }> = {};
  for (const [name, def] of Object.entries(secrets)) json[name] = { source: def.source };
  return json;
}
