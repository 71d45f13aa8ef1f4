import type { OfferedPool } from './offer';
import { toMilli } from './resources';
import type { PersistentVolume } from './persistent-volume';
import type { RunSpec } from './run-spec';

export type { PersistentVolume } from './persistent-volume';

/** A persistent volume as a run spec asks for it (`persistent.size` in MiB, converted to milli). */
export interface PersistentVolumeSpec {
  readonly containerPath: string;
  readonly diskMilli: number;
}

/**
 * The operations of an ACCEPT that reserve and release a resident instance's resources (Mesos
 * Offer.Operation RESERVE, CREATE, DESTROY, UNRESERVE). A reservation is identified by
 * `reservationId`, the id of the instance it belongs to; the Mesos driver writes it as the
 * reservation labels Marathon uses (`marathon_framework_id`, `marathon_task_id`; see
 * reservation-labels.ts). A reserved pool in an offer carries it as `OfferedPool.reservationId`.
 *
 * - `reserve`: the unreserved resources of `allocation` become reserved for `role`, labelled.
 * - `create`: persistent volumes on the disk of that reservation.
 * - `destroy`: the volumes are removed (their data is gone).
 * - `unreserve`: the reservation's resources (`allocation`, as offered) become unreserved again.
 */
export type ReservationOperation =
  | { readonly kind: 'reserve'; readonly agentId: string; readonly reservationId: string; readonly role: string; readonly allocation: readonly OfferedPool[] }
  | { readonly kind: 'create'; readonly agentId: string; readonly reservationId: string; readonly role: string; readonly volumes: readonly PersistentVolume[] }
  | { readonly kind: 'destroy'; readonly agentId: string; readonly reservationId: string; readonly role: string; readonly volumes: readonly PersistentVolume[] }
  | { readonly kind: 'unreserve'; readonly agentId: string; readonly reservationId: string; readonly role: string; readonly allocation: readonly OfferedPool[] };

/** Whether an operation of an ACCEPT is one of the reservation operations (no task). */
export function isReservationOperation<T extends { readonly kind: string }>(op: T | ReservationOperation): op is ReservationOperation {
  return op.kind === 'reserve' || op.kind === 'create' || op.kind === 'destroy' || op.kind === 'unreserve';
}

/** The persistence id of a resident instance's volume: one per instance and container path. */
export function persistenceIdOf(instanceId: string, index: number): string {
  return `${instanceId}#vol${index}`;
}

/**
 * The persistent volumes a run spec asks for, from its typed volumes: an app's
 * `container.volumes[]` of kind `persistent` (at their `containerPath`), a pod's `volumes[]` of
 * kind `persistent` (at their name, which containers mount). Sizes are MiB, in milli-units.
 */
export function persistentVolumesOf(spec: RunSpec): PersistentVolumeSpec[] {
  const out: PersistentVolumeSpec[] = [];
  if (spec.kind === 'app') {
    for (const v of spec.container?.volumes ?? []) if (v.kind === 'persistent') out.push({ containerPath: v.containerPath, diskMilli: toMilli(v.persistent.size) });
  } else {
    for (const v of spec.volumes) if (v.kind === 'persistent') out.push({ containerPath: v.name, diskMilli: toMilli(v.persistent.size) });
  }
  return out;
}
