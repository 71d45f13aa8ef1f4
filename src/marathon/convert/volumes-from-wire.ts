import type {
  AppVolume, ExternalVolumeInfo, PersistentVolumeInfo, PodVolume, ReadMode, VolumeMount,
} from '../../scheduler/model/volumes';
import { externalVolumeRules, VOLUME_NAMES_UNIQUE_MESSAGE } from './external-volume-rules';
import { POD_SECRET_VOLUMES_PATH } from './feature-rules';
import { childPointer } from './json-pointer';
import { podNameFromWire } from './pod-name';
import { labelsFromWire } from './string-map-from-wire';
import { WireObject } from './wire-object';

/** Message for an app volume that is none of the four kinds. */
export const APP_VOLUME_KIND_MESSAGE =
  'a volume needs one of hostPath (a host volume), persistent, external or secret';

const PERSISTENT_TYPES = ['root', 'path', 'mount'] as const;

/** What the rules of an app's volumes need to know besides the volumes. */
export interface AppVolumeScope {
  /** The container's type, as the container converter decided it. */
  readonly containerType: 'MESOS' | 'DOCKER';
  /** The names of the app's `secrets`, which a secret volume must name. */
  readonly secretNames: ReadonlySet<string>;
  /** A stored record: the rules pacer added after accepting such definitions are not applied. */
  readonly storedRecord: boolean;
}

/** Marathon's message for a secret volume naming no secret of the app or pod. */
export const SECRET_VOLUME_MESSAGE = 'volume.secret must refer to an existing secret';

/**
 * Reads an app's `container.volumes` (Marathon's `AppVolume`): each has a `containerPath` and is a
 * persistent volume (`persistent`), an external one (`external`), a secret (`secret`) or a host
 * path (`hostPath`); `mode` `RO` or `RW` when given. Undefined when absent. A persistent volume
 * follows Marathon's rules (below), an external one Marathon's provider rules
 * (`external-volume-rules.ts`), a secret volume names one of the app's secrets, and no two
 * external volumes share a `name` (at `/container/volumes`) — except in a stored record
 * (`storedRecord`): pacer accepted any before these rules, and such a record still loads (the local
 * cluster does not link a volume at a path that is not inside the sandbox, `mountVolumes`).
 */
export function appVolumesFromWire(container: WireObject, scope: AppVolumeScope): AppVolume[] | undefined {
  const list = container.array('volumes');
  if (list === undefined) return undefined;
  const volumes = list.flatMap((item, i) => {
    const v = WireObject.of(item, childPointer(container.pathOf('volumes'), i), container.sink);
    const volume = v === undefined ? undefined : appVolumeOf(v, scope);
    return volume === undefined ? [] : [volume];
  });
  if (!scope.storedRecord) {
    const names = volumes.flatMap((v) => (v.kind === 'external' && v.external.name !== undefined ? [v.external.name] : []));
    if (new Set(names).size !== names.length) container.fail('volumes', VOLUME_NAMES_UNIQUE_MESSAGE);
  }
  return volumes;
}

function appVolumeOf(v: WireObject, scope: AppVolumeScope): AppVolume | undefined {
  const containerPath = v.requiredString('containerPath');
  const mode = readModeOf(v);
  const withMode = mode === undefined ? {} : { mode };
  const rules = !scope.storedRecord;
  if (v.has('persistent')) {
    const persistent = persistentOf(v);
    if (rules) persistentVolumeRules(v, containerPath, mode, persistent);
    return containerPath === undefined || persistent === undefined ? undefined : { kind: 'persistent', containerPath, persistent, ...withMode };
  }
  if (v.has('external')) {
    const external = externalOf(v);
    if (rules) externalVolumeRules(v, scope.containerType, mode);
    return containerPath === undefined || external === undefined ? undefined : { kind: 'external', containerPath, external, ...withMode };
  }
  if (v.has('secret')) {
    const secret = v.optionalString('secret');
    if (rules && secret !== undefined && !scope.secretNames.has(secret)) v.fail(undefined, SECRET_VOLUME_MESSAGE);
    return containerPath === undefined || secret === undefined ? undefined : { kind: 'secret', containerPath, secret };
  }
  if (!v.has('hostPath')) {
    v.fail(undefined, APP_VOLUME_KIND_MESSAGE);
    return undefined;
  }
  const hostPath = v.optionalString('hostPath');
  return containerPath === undefined || hostPath === undefined ? undefined : { kind: 'host', containerPath, hostPath, ...withMode };
}

/**
 * Marathon's rules for an app's persistent volume (`AppValidation.validPersistentVolume`): its
 * `containerPath` is one segment of the sandbox, neither `.` nor `..` nor anything with a `/`
 * (the volume is mounted at `<sandbox>/<containerPath>`: `.` was the sandbox itself, and on the
 * local cluster the launch that linked the volume there failed and stopped pacer); its mode is
 * RW; its `size` is above 0; only a mount volume has a `maxSize`, above its `size`; a root volume
 * has no constraints. (Marathon checks none of these for a pod's persistent volume.)
 */
function persistentVolumeRules(
  v: WireObject, containerPath: string | undefined, mode: ReadMode | undefined, info: PersistentVolumeInfo | undefined,
): void {
  if (containerPath === '.' || containerPath === '..') v.fail('containerPath', 'must not be one of (., ..)');
  else if (containerPath?.includes('/') === true) v.fail('containerPath', 'value must not contain "/"');
  if (mode !== undefined && mode !== 'RW') v.fail('mode', `got ${mode}, expected RW: a persistent volume is read-write`);
  const p = v.child('persistent');
  if (info === undefined || p === undefined) return;
  // `validPersistentInfo`, with Marathon's messages (accord's for `size should be > 0`):
  if (info.size <= 0) p.fail('size', `got ${info.size}, expected more than 0`);
  if (info.maxSize !== undefined && info.type !== 'mount') p.fail('maxSize', 'Only mount volumes can have maxSize');
  else if (info.maxSize !== undefined && info.maxSize <= info.size) p.fail('maxSize', 'Max size must be larger than size');
  if ((info.type ?? 'root') === 'root' && info.constraints.length > 0) p.fail('constraints', 'Constraints on root volumes are not supported');
}

function readModeOf(v: WireObject): ReadMode | undefined {
  const mode = v.optionalString('mode');
  if (mode === undefined || mode === 'RO' || mode === 'RW') return mode;
  v.fail('mode', 'mode must be RO or RW');
  return undefined;
}

function persistentOf(v: WireObject): PersistentVolumeInfo | undefined {
  const p = v.child('persistent');
  if (p === undefined) return undefined;
  const type = p.optionalString('type');
  const knownType = PERSISTENT_TYPES.find((t) => t === type);
  if (type !== undefined && knownType === undefined) p.fail('type', `type must be one of ${PERSISTENT_TYPES.join(', ')}`);
  if (!p.has('size')) p.fail('size', 'error.path.missing');
  const size = p.optionalNumber('size', { min: 0, integer: true });
  const maxSize = p.optionalNumber('maxSize', { min: 0, integer: true });
  const profileName = p.optionalString('profileName');
  const constraints = (p.array('constraints') ?? []).flatMap((c, i) => {
    if (Array.isArray(c) && c.every((part) => typeof part === 'string')) return [c as string[]];
    p.sink.add(childPointer(p.pathOf('constraints'), i), 'error.expected.jsarray');
    return [];
  });
  if (size === undefined) return undefined;
  return {
    // No type: `root`, Marathon's default (RAML PersistentVolumeInfo), which its writer always gives.
    type: knownType ?? 'root', size,
    ...(maxSize === undefined ? {} : { maxSize }), ...(profileName === undefined ? {} : { profileName }), constraints,
  };
}

function externalOf(v: WireObject): ExternalVolumeInfo | undefined {
  const e = v.child('external');
  if (e === undefined) return undefined;
  if (e.optionalString('provider') === 'csi') return csiOf(e);
  const size = e.optionalNumber('size', { min: 0, integer: true });
  const name = e.optionalString('name');
  const provider = e.optionalString('provider');
  const shared = e.optionalBoolean('shared');
  return {
    kind: 'dvdi', ...(size === undefined ? {} : { size }), ...(name === undefined ? {} : { name }),
    ...(provider === undefined ? {} : { provider }), options: labelsFromWire(e, 'options'), ...(shared === undefined ? {} : { shared }),
  };
}

function csiOf(e: WireObject): ExternalVolumeInfo | undefined {
  const name = e.requiredString('name');
  if (!e.has('options')) e.fail('options', 'error.path.missing');
  const options = e.child('options');
  const pluginName = options?.requiredString('pluginName');
  if (options !== undefined && !options.has('capability')) options.fail('capability', 'error.path.missing');
  const capability = options?.child('capability');
  const accessMode = capability?.requiredString('accessMode');
  const accessType = capability?.requiredString('accessType');
  const fsType = capability?.optionalString('fsType');
  const mountFlags = capability?.optionalStrings('mountFlags') ?? [];
  if (name === undefined || pluginName === undefined || accessMode === undefined || accessType === undefined) return undefined;
  return {
    kind: 'csi', name,
    options: {
      pluginName,
      capability: { accessMode, accessType, ...(fsType === undefined ? {} : { fsType }), mountFlags },
      nodeStageSecret: labelsFromWire(options, 'nodeStageSecret'),
      nodePublishSecret: labelsFromWire(options, 'nodePublishSecret'),
      volumeContext: labelsFromWire(options, 'volumeContext'),
    },
  };
}

/** A pod's declared volumes. */
export interface ConvertedPodVolumes {
  readonly volumes: readonly PodVolume[];
  /** Names containers may mount. */
  readonly names: ReadonlySet<string>;
  /** Some volume is `persistent`: the pod is a resident service. */
  readonly resident: boolean;
}

/**
 * Reads `pod.volumes` (spec 2.1.1): each has a unique `name`, and is a host volume (`host`), a
 * persistent volume (`persistent`), a secret (`secret`) or else an ephemeral directory shared by
 * the containers. A secret volume names one of the pod's `secrets` (`secretNames`), reported as
 * Marathon's `PodsValidation` does (`podSecretVolumes(pod) is empty or every(…)`), except in a
 * stored record (`storedRecord`), read as it was accepted.
 */
export function podVolumesFromWire(pod: WireObject, secretNames: ReadonlySet<string>, storedRecord: boolean): ConvertedPodVolumes {
  const list = pod.array('volumes') ?? [];
  const names = new Set<string>();
  const volumes: PodVolume[] = [];
  list.forEach((item, i) => {
    const volume = WireObject.of(item, childPointer(pod.pathOf('volumes'), i), pod.sink);
    if (volume === undefined) return;
    const name = podNameFromWire(volume, 'name');
    if (name !== undefined && names.has(name)) volume.fail('name', 'volume names must be unique');
    if (name !== undefined) names.add(name);
    const converted = name === undefined ? undefined : podVolumeOf(volume, name);
    if (converted !== undefined) volumes.push(converted);
  });
  if (!storedRecord) podSecretVolumeRules(pod, volumes, secretNames);
  return { volumes, names, resident: volumes.some((v) => v.kind === 'persistent') };
}

/**
 * Marathon's rule for a pod's secret volumes, at its paths: the text accord makes of
 * `podSecretVolumes(pod)` (as the feature rule's, `feature-rules.ts`), `(i)` the position among
 * the secret volumes, and `must be empty` beside it, the other half of Marathon's `is empty or`.
 */
function podSecretVolumeRules(pod: WireObject, volumes: readonly PodVolume[], secretNames: ReadonlySet<string>): void {
  const secretVolumes = volumes.flatMap((v) => (v.kind === 'secret' ? [v] : []));
  const missing = secretVolumes.flatMap((v, i) => (secretNames.has(v.secret) ? [] : [i]));
  if (missing.length === 0) return;
  pod.sink.add(POD_SECRET_VOLUMES_PATH, 'must be empty');
  for (const i of missing) pod.sink.add(childPointer(childPointer(POD_SECRET_VOLUMES_PATH, i), 'secret'), SECRET_VOLUME_MESSAGE);
}

function podVolumeOf(v: WireObject, name: string): PodVolume | undefined {
  if (v.has('persistent')) {
    const persistent = persistentOf(v);
    return persistent === undefined ? undefined : { kind: 'persistent', name, persistent };
  }
  if (v.has('secret')) {
    const secret = v.optionalString('secret');
    return secret === undefined ? undefined : { kind: 'secret', name, secret };
  }
  const host = v.optionalString('host');
  return host === undefined ? { kind: 'ephemeral', name } : { kind: 'host', name, host };
}

/** Reads a pod container's `volumeMounts`: each names a volume of the pod and has a `mountPath`. */
export function volumeMountsFromWire(c: WireObject, volumeNames: ReadonlySet<string>): VolumeMount[] {
  const list = c.array('volumeMounts') ?? [];
  return list.flatMap((item, i) => {
    const mount = WireObject.of(item, childPointer(c.pathOf('volumeMounts'), i), c.sink);
    if (mount === undefined) return [];
    const name = mount.optionalString('name');
    if (!mount.has('name')) mount.fail('name', 'error.path.missing');
    else if (name !== undefined && !volumeNames.has(name)) {
      mount.fail('name', `volume mount "${name}" does not name a volume declared by the pod`);
    }
    if (!mount.has('mountPath')) mount.fail('mountPath', 'error.path.missing');
    const mountPath = mount.optionalString('mountPath');
    const readOnly = mount.optionalBoolean('readOnly');
    if (name === undefined || mountPath === undefined) return [];
    return [{ name, mountPath, ...(readOnly === undefined ? {} : { readOnly }) }];
  });
}
