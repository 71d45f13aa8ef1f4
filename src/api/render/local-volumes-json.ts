import type { Instance } from '../../scheduler/model/instance';

/**
 * One entry of a task's or pod instance's `localVolumes`: Marathon 1.11's LocalVolumeId, keys in
 * its order (docs/…/types/localVolumes.raml, raml/LocalVolumeConversion.scala).
 */
export interface LocalVolumeJson {
  readonly runSpecId: string;
  readonly containerPath: string;
  readonly uuid: string;
  readonly persistenceId: string;
}

const INSTANCE_MARKER = '.instance-';

/**
 * The persistent volumes of a resident instance's reservation, as Marathon writes them in a task
 * (raml/TaskConversion.scala) and a pod instance's status (raml/PodStatusConversion.scala): one
 * per volume of `instance.reservation`, in its order; `[]` without a reservation. Derived from
 * what the store already keeps (the reservation's volumes, the instance id), nothing added:
 * - `containerPath`: the volume's (an app's `containerPath`, a pod's volume name, as Marathon's
 *   LocalVolumeId takes the volume's name, else its mount path);
 * - `persistenceId`: the id the volume has on the agent (pacer's `<instance id>#vol<i>`,
 *   model/reservation.ts `persistenceIdOf`), which is what an operator finds it by;
 * - `uuid`: the UUID of the instance id, where Marathon writes the time-based UUID it made for the
 *   volume (its persistence id is `<run spec safe path>#<name>#<uuid>`). pacer's persistence ids
 *   do not have Marathon's form, and what makes them unique on the agent is the instance's UUID
 *   (with the volume's index), so that is the UUID written; an id without one writes the whole id.
 */
export function localVolumesJson(instance: Instance): LocalVolumeJson[] {
  const volumes = instance.reservation?.volumes;
  if (volumes === undefined || volumes.length === 0) return [];
  const id = instance.instanceId;
  const at = id.indexOf(INSTANCE_MARKER);
  const uuid = at < 0 ? id : id.slice(at + INSTANCE_MARKER.length);
  return volumes.map((v) => ({ runSpecId: instance.runSpecId, containerPath: v.containerPath, uuid, persistenceId: v.persistenceId }));
}
