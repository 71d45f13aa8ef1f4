import type { PersistentVolumeSpec } from '../../scheduler/model/reservation';
import { toMilli } from '../../scheduler/model/resources';

/**
 * The persistent volumes of an app: `container.volumes[]` entries with `persistent` (their
 * `containerPath`, `persistent.size` in MiB). The shapes were validated by the app schema; a
 * missing size counts as 0.
 */
export function appPersistentVolumes(container: unknown): PersistentVolumeSpec[] {
  const volumes = isRecord(container) ? container.volumes : undefined;
  if (!Array.isArray(volumes)) return [];
  const out: PersistentVolumeSpec[] = [];
  for (const v of volumes) {
    if (!isRecord(v) || !isRecord(v.persistent)) continue;
    out.push({ containerPath: typeof v.containerPath === 'string' ? v.containerPath : '', diskMilli: sizeMilli(v.persistent) });
  }
  return out;
}

/**
 * The persistent volumes of a pod: `volumes[]` entries with `persistent`; a pod volume is
 * identified by its `name` (containers mount it by name), which becomes its container path.
 */
export function podPersistentVolumes(volumes: readonly Readonly<Record<string, unknown>>[]): PersistentVolumeSpec[] {
  const out: PersistentVolumeSpec[] = [];
  for (const v of volumes) {
    if (!isRecord(v.persistent)) continue;
    out.push({ containerPath: typeof v.name === 'string' ? v.name : '', diskMilli: sizeMilli(v.persistent) });
  }
  return out;
}

function sizeMilli(persistent: Record<string, unknown>): number {
  return typeof persistent.size === 'number' && persistent.size > 0 ? toMilli(persistent.size) : 0;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
