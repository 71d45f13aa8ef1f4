import type { AppSpec } from '../../scheduler/model/run-spec';
import { isRecord } from '../../marathon/convert/wire-object';

/**
 * App fields Marathon 1.11 leaves out when they are empty: the RAML `(pragma.omitEmpty)` fields of
 * `App` (`docs/docs/rest-api/public/api/v2/types/app.raml`), and `acceptedResourceRoles`, which
 * `AppConversion.appWriter` writes only when non-empty.
 */
const OMITTED_WHEN_EMPTY = [
  'args', 'constraints', 'dependencies', 'env', 'fetch', 'healthChecks', 'readinessChecks', 'secrets', 'acceptedResourceRoles',
] as const;

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
 * generated RAML writers of `type-generator/.../ObjectVisitor.scala`): the stored definition with
 * every default, `version` and `versionInfo` of this version, and
 *
 * - no `null` (unset optional fields are left out; the definition never holds one);
 * - the omit-if-empty fields ({@link OMITTED_WHEN_EMPTY}) left out when `[]`/`{}`;
 * - inside, the omit-if-empty fields of the nested types: `portDefinitions[].labels` and
 *   `networks[].labels` (`types/network.raml`), `container.portMappings[].networkNames`
 *   (`types/appContainer.raml`).
 *
 * `labels` is always written (`{}` when empty), as are `networks` and `portDefinitions` (fact 18,
 * table L). Every view of an app goes through here: `/v2/apps`, groups, versions, the queue,
 * `api_post_event` and the plans of deployment events. Pods keep the spec's own rule
 * (`pod-json.ts`: empty collections written, unset scalars `null`).
 */
export function appDefinitionJson(spec: AppSpec, options: AppDefinitionJsonOptions = {}): Record<string, unknown> {
  const json: Record<string, unknown> = { ...spec.definition, version: spec.version };
  if (options.versionInfo === false) delete json.versionInfo;
  else json.versionInfo = { ...spec.versionInfo };
  for (const key of Object.keys(json)) if (json[key] === null) delete json[key];
  for (const key of OMITTED_WHEN_EMPTY) if (isEmpty(json[key])) delete json[key];
  if (Array.isArray(json.portDefinitions)) json.portDefinitions = json.portDefinitions.map((p) => withoutEmpty(p, 'labels'));
  if (Array.isArray(json.networks)) json.networks = json.networks.map((n) => withoutEmpty(n, 'labels'));
  if (isRecord(json.container) && Array.isArray(json.container.portMappings)) {
    json.container = { ...json.container, portMappings: json.container.portMappings.map((m) => withoutEmpty(m, 'networkNames')) };
  }
  return json;
}

/** `[]`, `{}` (or absent): what omit-if-empty leaves out. */
function isEmpty(value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

/** `item` without `key` when that is empty; other items unchanged (never mutated). */
function withoutEmpty(item: unknown, key: string): unknown {
  if (!isRecord(item) || !(key in item) || !isEmpty(item[key])) return item;
  const { [key]: _dropped, ...rest } = item;
  return rest;
}
