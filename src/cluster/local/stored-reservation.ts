import { storedReservation } from '../../generated/record-validators';
import type { MasterReservation } from '../../master/master';
import { recordCheck } from '../../store/records/record-schema';
import { resourcesCopy, volumeCopy, type StoredResourcesV1, type StoredVolumeV1 } from '../../store/records/stored-instance';

/**
 * How the local cluster's state file stores one dynamic reservation of the master model (a
 * resident instance's, made by RESERVE and changed by CREATE and DESTROY), so that a restart puts
 * it back before the first offer (`Master.restoreReservation`): a plain type of its own, mapped by
 * hand from and to the live {@link MasterReservation}, checked against `STORED_RESERVATION_SCHEMA`
 * (stored-executor-schema.ts) when the file is read. `v` is this shape's version (1); a record of
 * another version fails the schema and is set aside, never fatal.
 */
export interface StoredLocalReservationV1 {
  readonly v: 1;
  readonly agentId: string;
  readonly role: string;
  /** The instance it belongs to (Marathon's reservation labels name it). */
  readonly reservationId: string;
  /** The reserved scalars, in milli-units (`gpus` a count). */
  readonly resources: StoredResourcesV1;
  /** The reserved ports, as inclusive ranges. */
  readonly ports: readonly (readonly [number, number])[];
  /** Persistent volumes on its disk: persistence id, container path, size in milli-MiB. */
  readonly volumes: readonly StoredVolumeV1[];
}

/** The key of a reservation in the state file's journal: its agent and pool (`role:<role>#<reservation id>`). */
export function reservationKey(r: { readonly agentId: string; readonly role: string; readonly reservationId: string }): string {
  return `${r.agentId} role:${r.role}#${r.reservationId}`;
}

/** How a reservation is named where one is set aside: `<reservation id> (agent <id>, role <role>)`; the parts may be missing (a damaged record). */
export function reservationLabel(r: { readonly agentId?: unknown; readonly role?: unknown; readonly reservationId?: unknown }): string {
  return `${String(r.reservationId)} (agent ${String(r.agentId)}, role ${String(r.role)})`;
}

/** The stored form of `r` (a fresh copy). */
export function reservationToStored(r: MasterReservation): StoredLocalReservationV1 {
  const a = r.capacity;
  return {
    v: 1, agentId: r.agentId, role: r.role, reservationId: r.reservationId,
    resources: resourcesCopy(a),
    ports: a.ports.map(([b, e]) => [b, e] as const),
    volumes: r.volumes.map(volumeCopy),
  };
}

/** The live reservation of a stored one that passed {@link storedReservationProblem}. */
export function reservationFromStored(s: StoredLocalReservationV1): MasterReservation {
  const r = s.resources;
  return {
    agentId: s.agentId, role: s.role, reservationId: s.reservationId,
    capacity: { reservedFor: s.role, reservationId: s.reservationId, ...resourcesCopy(r), ports: s.ports.map(([b, e]) => [b, e] as const) },
    volumes: s.volumes.map(volumeCopy),
  };
}

/** Why a stored reservation cannot be used, or undefined (closed, bounded schema: `STORED_RESERVATION_SCHEMA`). */
export const storedReservationProblem = recordCheck('StoredLocalReservationV1', storedReservation);
