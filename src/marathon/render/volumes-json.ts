import type {
  AppVolume, ExternalVolumeInfo, PersistentVolumeInfo, PodVolume, VolumeMount,
} from '../../scheduler/model/volumes';

/** One of an app's `container.volumes` (Marathon's `AppVolume`). */
export function appVolumeJson(v: AppVolume): Record<string, unknown> {
  const json: Record<string, unknown> = { containerPath: v.containerPath };
  switch (v.kind) {
    case 'host':
      json.hostPath = v.hostPath;
      break;
    case 'persistent':
      json.persistent = persistentJson(v.persistent);
      break;
    case 'external':
      json.external = externalJson(v.external);
      break;
    case 'secret':
      json.secret = v.secret;
      return json;
  }
  if (v.mode !== undefined) json.mode = v.mode;
  return json;
}

/** One of a pod's `volumes` (Marathon's `PodVolume`). */
export function podVolumeJson(v: PodVolume): Record<string, unknown> {
  switch (v.kind) {
    case 'ephemeral':
      return { name: v.name };
    case 'host':
      return { name: v.name, host: v.host };
    case 'persistent':
      return { name: v.name, persistent: persistentJson(v.persistent) };
    case 'secret':
      return { name: v.name, secret: v.secret };
  }
}

/** A pod container's `volumeMounts[]` entry. */
export function volumeMountJson(m: VolumeMount): Record<string, unknown> {
  const json: Record<string, unknown> = { name: m.name, mountPath: m.mountPath };
  if (m.readOnly !== undefined) json.readOnly = m.readOnly;
  return json;
}

function persistentJson(p: PersistentVolumeInfo): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  if (p.type !== undefined) json.type = p.type;
  json.size = p.size;
  if (p.maxSize !== undefined) json.maxSize = p.maxSize;
  if (p.profileName !== undefined) json.profileName = p.profileName;
  if (p.constraints.length > 0) json.constraints = p.constraints.map((c) => [...c]);
  return json;
}

function externalJson(e: ExternalVolumeInfo): Record<string, unknown> {
  if (e.kind === 'csi') {
    const { capability, ...secrets } = e.options;
    const options: Record<string, unknown> = { pluginName: e.options.pluginName, capability: capabilityJson(capability) };
    for (const key of ['nodeStageSecret', 'nodePublishSecret', 'volumeContext'] as const) {
      if (Object.keys(secrets[key]).length > 0) options[key] = { ...secrets[key] };
    }
    return { name: e.name, provider: 'csi', options };
  }
  const json: Record<string, unknown> = {};
  if (e.size !== undefined) json.size = e.size;
  if (e.name !== undefined) json.name = e.name;
  if (e.provider !== undefined) json.provider = e.provider;
  if (Object.keys(e.options).length > 0) json.options = { ...e.options };
  if (e.shared !== undefined) json.shared = e.shared;
  return json;
}

function capabilityJson(c: Extract<ExternalVolumeInfo, { kind: 'csi' }>['options']['capability']): Record<string, unknown> {
  const json: Record<string, unknown> = { accessMode: c.accessMode, accessType: c.accessType };
  if (c.fsType !== undefined) json.fsType = c.fsType;
  if (c.mountFlags.length > 0) json.mountFlags = [...c.mountFlags];
  return json;
}
