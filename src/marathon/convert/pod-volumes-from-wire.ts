import { childPointer } from './json-pointer';
import { podNameFromWire } from './pod-name';
import { WireObject } from './wire-object';

/** A pod's declared volumes. */
export interface ConvertedPodVolumes {
  /** Names containers may mount. */
  readonly names: ReadonlySet<string>;
  /** Some volume is `persistent`: the pod is a resident service. */
  readonly resident: boolean;
  readonly wire: readonly Readonly<Record<string, unknown>>[];
}

/**
 * Reads `pod.volumes` (spec 2.1.1): each has a unique `name`, and optionally `host` or
 * `persistent`; volumes are echoed as given.
 */
export function podVolumesFromWire(pod: WireObject): ConvertedPodVolumes {
  const list = pod.array('volumes') ?? [];
  const names = new Set<string>();
  const wire: Readonly<Record<string, unknown>>[] = [];
  let resident = false;
  list.forEach((item, i) => {
    const volume = WireObject.of(item, childPointer(pod.pathOf('volumes'), i), pod.sink);
    if (volume === undefined) return;
    const name = podNameFromWire(volume, 'name');
    if (name !== undefined && names.has(name)) volume.fail('name', 'volume names must be unique');
    if (name !== undefined) names.add(name);
    volume.optionalString('host');
    if (volume.child('persistent') !== undefined) resident = true;
    wire.push(volume.withExtras({ name }));
  });
  return { names, resident, wire };
}
