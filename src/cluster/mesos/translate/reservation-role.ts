import type { Resource } from '../codec/mesos-model';
import { currentReservation, ownReservationId } from './reservation-labels';

/**
 * The role a resource is reserved for, or undefined when it is unreserved. Reads both formats of
 * mesos-v1-scheduler-api.md §4.2: the post-refinement `reservations` stack (the last entry is the
 * current reservation) and the pre-refinement `role` (`"*"` = unreserved; `reservation` only marks
 * a dynamic reservation of that same role). A `role` of `"*"` next to a stack is ignored: it is
 * the protobuf default leaking through, never a real reservation (§4.2 protobufjs trap).
 */
export function reservationRole(resource: Resource): string | undefined {
  const stack = resource.reservations;
  if (stack !== undefined && stack.length > 0) {
    const role = stack[stack.length - 1].role;
    if (role !== undefined && role !== '' && role !== '*') return role;
  }
  const role = resource.role;
  return role === undefined || role === '' || role === '*' ? undefined : role;
}

/**
 * Whether the core can schedule with this resource. The core's pools hold plain quantities and the
 * persistent volumes of its own resident instances, so these are left out of them (and thus never
 * launched with; they go back to Mesos with the offer's leftovers):
 * - revocable resources (§4.1; pacer does not register REVOCABLE_RESOURCES, so they only appear
 *   if a master sends them anyway — oversubscribed capacity must not back long-running tasks);
 * - shared resources (persistent volumes shared between tasks, SHARED_RESOURCES not registered);
 * - disks with `disk.source` (PATH/MOUNT/BLOCK/RAW disks; a MOUNT disk can only be consumed
 *   whole, §4.1), and disks with `disk.persistence` unless the volume is on a reservation of this
 *   framework (`frameworkId`, reservation-labels.ts): another framework's volumes are not pacer's;
 * - resources of a resource provider (`providerId`), which need operation feedback (§2.3);
 * - dynamically reserved resources that are not this framework's own labelled reservation
 *   (another framework's, or an operator's without Marathon's labels): Marathon launches only on
 *   unreserved, statically reserved, or its own resident instances' reservations
 *   (mesosphere/marathon ResourceMatcher: a non-resident launch considers only resources without
 *   a ReservationInfo), so another framework's resident instance always finds its reservation free.
 */
export function isCoreUsable(resource: Resource, frameworkId?: string): boolean {
  if (resource.revocable !== undefined || resource.shared !== undefined || resource.providerId !== undefined) return false;
  if (isDynamicallyReserved(resource) && ownReservationId(resource, frameworkId) === undefined) return false;
  const disk = resource.disk;
  if (disk === undefined) return true;
  if (disk.source !== undefined) return false;
  return disk.persistence === undefined || ownReservationId(resource, frameworkId) !== undefined;
}

/**
 * Whether the resource's current reservation is dynamic: a post-refinement stack whose last entry
 * is not STATIC, or the pre-refinement `reservation` marker (§4.2).
 */
function isDynamicallyReserved(resource: Resource): boolean {
  if (reservationRole(resource) === undefined) return false;
  const info = currentReservation(resource);
  return info !== undefined && info.type !== 'STATIC';
}
