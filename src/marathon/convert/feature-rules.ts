import type { ConvertContext } from './convert-context';
import { childPointer } from './json-pointer';
import { isRecord, type WireObject } from './wire-object';

/**
 * Marathon's message for a field that needs a feature `--enable_features` does not name
 * (`Validation.featureEnabled`), its stray `)` included: clients match the text.
 */
export function featureMessage(feature: string): string {
  return `Feature ${feature} is not enabled. Enable with --enable_features ${feature})`;
}

/** Marathon's message for an app with GPUs in a Docker container (`AppValidation.complyWithGpuRules`). */
export const GPU_DOCKER_MESSAGE = 'GPU resources only work with the Mesos containerizer';

/** Marathon's message for secret references in an environment without `secrets` (`EnvVarValidationMessages`). */
export const ENV_SECRETS_MESSAGE = 'use of secret-references in the environment requires the secrets feature to be enabled';

/**
 * Marathon's paths for secret volumes without `secrets`: the text accord makes of the expression
 * Marathon checks (`secretVolumes(container)`, `podSecretVolumes(pod)`), kept as clients see it.
 */
export const APP_SECRET_VOLUMES_PATH = '/container/secretVolumes(container)';
export const POD_SECRET_VOLUMES_PATH = '/podSecretVolumes(pod)';

/** The message accord gives a non-empty value where Marathon's `is empty or featureEnabled` wants none. */
const MUST_BE_EMPTY = 'must be empty';

/**
 * The features a definition is checked against, or undefined when it is not checked: only a
 * definition a client sends is (`ConvertContext.enabledFeatures`); a stored record loads whatever
 * the flags are now, as it was accepted when stored.
 */
function checkedFeatures(ctx: ConvertContext): ReadonlySet<string> | undefined {
  if (ctx.storedRecord === true || ctx.enabledFeatures === undefined) return undefined;
  return new Set(ctx.enabledFeatures);
}

/** What the app converter already read that the feature rules look at. */
export interface AppFeatureFacts {
  readonly gpus: number;
  readonly containerType: 'MESOS' | 'DOCKER' | undefined;
  readonly secretCount: number;
  readonly envSecretCount: number;
}

/**
 * Marathon's rules for an app's feature-gated fields (`AppValidation.validBasicAppDefinition`,
 * `validContainer`, `validVolume`), at its paths:
 *
 * - `gpus` above 0: not in a Docker container, and `gpu_resources` enabled (both at `/`);
 * - `secrets` (`/secrets`), secret references in `env` (`/env`), secret volumes and a Mesos
 *   container's `docker.pullConfig` need `secrets`;
 * - an external volume needs `external_volumes` (`/container/volumes(i)`).
 */
export function appFeatureRules(app: WireObject, facts: AppFeatureFacts, ctx: ConvertContext): void {
  const features = checkedFeatures(ctx);
  if (features === undefined) return;
  if (facts.gpus > 0) {
    if (facts.containerType === 'DOCKER') app.sink.add('', GPU_DOCKER_MESSAGE);
    if (!features.has('gpu_resources')) app.sink.add('', featureMessage('gpu_resources'));
  }
  const secrets = features.has('secrets');
  if (!secrets && facts.secretCount > 0) app.fail('secrets', featureMessage('secrets'));
  if (!secrets && facts.envSecretCount > 0) app.fail('env', ENV_SECRETS_MESSAGE);
  const container = app.raw.container;
  if (!isRecord(container)) return;
  const volumes = Array.isArray(container.volumes) ? container.volumes : [];
  const pointer = app.pathOf('container');
  if (!secrets && facts.containerType === 'MESOS' && isRecord(container.docker) && given(container.docker.pullConfig)) {
    emptyOrFeature(app, childPointer(childPointer(pointer, 'docker'), 'pullConfig'), 'secrets');
  }
  if (!secrets && volumes.some((v) => appVolumeKind(v) === 'secret')) emptyOrFeature(app, APP_SECRET_VOLUMES_PATH, 'secrets');
  if (!features.has('external_volumes')) {
    volumes.forEach((v, i) => {
      if (appVolumeKind(v) === 'external') app.sink.add(childPointer(childPointer(pointer, 'volumes'), i), featureMessage('external_volumes'));
    });
  }
}

/** What the pod converter already read that the feature rules look at. */
export interface PodFeatureFacts {
  readonly secretCount: number;
  readonly envSecretCount: number;
}

/**
 * Marathon's rules for a pod's feature-gated fields (`PodsValidation.podValidator`): `secrets`
 * (`/secrets`), secret volumes, secret references in the pod's or a container's `environment`, and
 * a Docker image's `pullConfig` need `secrets`. Marathon checks no feature for a pod's GPUs.
 */
export function podFeatureRules(pod: WireObject, facts: PodFeatureFacts, ctx: ConvertContext): void {
  const features = checkedFeatures(ctx);
  if (features === undefined || features.has('secrets')) return;
  if (facts.envSecretCount > 0) pod.fail('environment', ENV_SECRETS_MESSAGE);
  const volumes = Array.isArray(pod.raw.volumes) ? pod.raw.volumes : [];
  if (volumes.some((v) => isRecord(v) && !given(v.persistent) && given(v.secret))) emptyOrFeature(pod, POD_SECRET_VOLUMES_PATH, 'secrets');
  const containers = Array.isArray(pod.raw.containers) ? pod.raw.containers : [];
  containers.forEach((c, i) => {
    if (!isRecord(c)) return;
    const at = childPointer(pod.pathOf('containers'), i);
    if (isRecord(c.environment) && Object.values(c.environment).some(isRecord)) pod.sink.add(childPointer(at, 'environment'), ENV_SECRETS_MESSAGE);
    const image = c.image;
    if (isRecord(image) && image.kind === 'DOCKER' && given(image.pullConfig)) {
      emptyOrFeature(pod, childPointer(childPointer(at, 'image'), 'pullConfig'), 'secrets');
    }
  });
  if (facts.secretCount > 0) emptyOrFeature(pod, pod.pathOf('secrets'), 'secrets');
}

/** Marathon's `is empty or featureEnabled(…)`: both messages at `path`. */
function emptyOrFeature(holder: WireObject, path: string, feature: string): void {
  holder.sink.add(path, MUST_BE_EMPTY);
  holder.sink.add(path, featureMessage(feature));
}

/** The kind of an app volume as `appVolumesFromWire` reads it: the first of these fields given. */
function appVolumeKind(v: unknown): 'persistent' | 'external' | 'secret' | 'host' | undefined {
  if (!isRecord(v)) return undefined;
  if (given(v.persistent)) return 'persistent';
  if (given(v.external)) return 'external';
  if (given(v.secret)) return 'secret';
  return given(v.hostPath) ? 'host' : undefined;
}

/** Present and not null, as `WireObject.has` counts it. */
function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}
