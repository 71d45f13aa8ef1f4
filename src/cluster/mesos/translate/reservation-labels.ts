import type { Labels, ReservationInfo, Resource } from '../codec/mesos-model';

/** The label naming the framework that made a reservation (Marathon's `TaskLabels`). */
export const FRAMEWORK_ID_LABEL = 'marathon_framework_id';

/**
 * The label naming what a reservation is for. Marathon writes its reservation id there (for
 * historical reasons the label still says "task"; mesosphere/marathon
 * src/main/scala/mesosphere/marathon/core/launcher/impl/TaskLabels.scala); pacer writes the id of
 * the resident instance, which is the core's `reservationId`.
 */
export const RESERVATION_ID_LABEL = 'marathon_task_id';

/**
 * The labels of a dynamic reservation (and of the persistent volumes on it) made for the resident
 * instance `reservationId` by framework `frameworkId`: the two labels Marathon puts on its
 * reservations, so the reservation is recognised after a restart or a master failover.
 */
export function reservationLabels(frameworkId: string, reservationId: string): Labels {
  return { labels: [{ key: FRAMEWORK_ID_LABEL, value: frameworkId }, { key: RESERVATION_ID_LABEL, value: reservationId }] };
}

/**
 * The current reservation of a resource: the last entry of the post-refinement stack, or the
 * pre-refinement `reservation` marker (mesos-v1-scheduler-api.md §4.2). Undefined when unreserved
 * or statically reserved without a marker.
 */
export function currentReservation(resource: Resource): ReservationInfo | undefined {
  const stack = resource.reservations;
  if (stack !== undefined && stack.length > 0) return stack[stack.length - 1];
  return resource.reservation;
}

/**
 * The reservation id of a dynamically reserved resource when the reservation is this
 * framework's: its labels name `frameworkId` and carry a reservation id (as Marathon's
 * `TaskLabels.instanceIdForResource` reads them). Undefined for unlabelled reservations, static
 * ones, and those of other frameworks (which pacer must neither use nor release).
 */
export function ownReservationId(resource: Resource, frameworkId: string | undefined): string | undefined {
  if (frameworkId === undefined) return undefined;
  const info = currentReservation(resource);
  if (info === undefined || info.type === 'STATIC') return undefined;
  const labels = info.labels?.labels ?? [];
  const framework = labels.find((l) => l.key === FRAMEWORK_ID_LABEL)?.value;
  const id = labels.find((l) => l.key === RESERVATION_ID_LABEL)?.value;
  return framework === frameworkId && id !== undefined && id !== '' ? id : undefined;
}
