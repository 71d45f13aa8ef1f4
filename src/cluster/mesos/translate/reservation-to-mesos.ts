import type { PersistentVolume, ReservationOperation } from '../../../scheduler/model/reservation';
import { fromMilli } from '../../../scheduler/model/resources';
import type { OfferOperation, ReservationInfo, Resource } from '../codec/mesos-model';
import type { OfferResourceLedger } from './offer-resource-ledger';
import { reservationLabels } from './reservation-labels';

/** Who reserves: the framework id (for the labels) and its principal, when it has one. */
export interface ReservationContext {
  readonly frameworkId: string;
  /** The framework's principal: Mesos requires it on every reservation and volume when set (§2.3). */
  readonly principal?: string;
}

/**
 * One reservation operation of a resident instance as a Mesos `Offer.Operation`
 * (mesos-v1-scheduler-api.md §2.3, §4.1, §4.2), drawing from and updating `ledger` so that later
 * operations of the same ACCEPT see its result:
 *
 * - `reserve` → RESERVE of the offered unreserved resources of `allocation`, each dynamically
 *   reserved for the operation's role with the framework's principal and the labels Marathon
 *   puts on reservations (`marathon_framework_id`, `marathon_task_id` = the instance id:
 *   reservation-labels.ts), in the format the resource was offered in (pre-refinement `role` +
 *   `reservation`, or a post-refinement `reservations` entry; `allocation_info` kept);
 * - `create` → CREATE of one disk resource per volume, taken from that reservation's disk, with
 *   `disk.persistence` (id, principal) and `disk.volume` (`container_path`, RW);
 * - `destroy` → DESTROY of the offered volumes exactly as offered; their disk goes back to the
 *   reservation;
 * - `unreserve` → UNRESERVE of the reservation's resources exactly as offered.
 *
 * Throws when the operation does not fit the offer (a core bug).
 */
export function reservationToMesos(op: ReservationOperation, ctx: ReservationContext, ledger: OfferResourceLedger): OfferOperation {
  const key = { role: op.role, reservationId: op.reservationId };
  switch (op.kind) {
    case 'reserve': {
      const info: ReservationInfo = {
        ...(ctx.principal === undefined ? {} : { principal: ctx.principal }),
        labels: reservationLabels(ctx.frameworkId, op.reservationId),
      };
      const resources = ledger.take(op.allocation.map((p) => ({ ...p, reservedFor: undefined, reservationId: undefined }))).map((r) => reserved(r, op.role, info));
      ledger.add(resources);
      return { type: 'RESERVE', reserve: { resources } };
    }
    case 'create': {
      const volumes = op.volumes.map((v) => volumeOf(ledger.take([{ reservedFor: op.role, reservationId: op.reservationId, cpusMilli: 0, memMilli: 0, diskMilli: v.diskMilli, gpus: 0, ports: [] }]), v, ctx));
      ledger.add(volumes);
      return { type: 'CREATE', create: { volumes } };
    }
    case 'destroy': {
      const volumes = op.volumes.map((v) => ledger.takeVolume(key, v.persistenceId));
      ledger.add(volumes.map(withoutVolume));
      return { type: 'DESTROY', destroy: { volumes } };
    }
    case 'unreserve':
      return { type: 'UNRESERVE', unreserve: { resources: ledger.take(op.allocation.map((p) => ({ ...p, reservedFor: op.role, reservationId: op.reservationId }))) } };
  }
}

/** An unreserved offered resource, dynamically reserved for `role` in the format it came in (§4.2). */
function reserved(resource: Resource, role: string, info: ReservationInfo): Resource {
  const { role: _role, reservation: _reservation, reservations, ...rest } = resource;
  if (reservations !== undefined) return { ...rest, reservations: [...reservations, { type: 'DYNAMIC', role, ...info }] };
  return { ...rest, role, reservation: info };
}

/** A persistent volume made of the reservation's disk `pieces` (one resource, their sizes added up). */
function volumeOf(pieces: readonly Resource[], volume: PersistentVolume, ctx: ReservationContext): Resource {
  const first = pieces[0];
  if (first === undefined) throw new Error(`create: persistent volume ${volume.persistenceId} has no size`);
  return {
    ...first,
    scalar: { value: fromMilli(volume.diskMilli) },
    disk: {
      persistence: { id: volume.persistenceId, ...(ctx.principal === undefined ? {} : { principal: ctx.principal }) },
      volume: { containerPath: volume.containerPath, mode: 'RW' },
    },
  };
}

/** A destroyed volume's disk: the same reserved disk without the volume. */
function withoutVolume(volume: Resource): Resource {
  const { disk: _disk, ...rest } = volume;
  return rest;
}
