import type { MasterReservation } from '../../master/master';
import type { OfferedPool } from '../../scheduler/model/offer';
import type { ExecutorRecord } from './executor-record';

/** What a state file written before reservations were recorded becomes once they are filled in. */
export interface LegacyStateFilled {
  readonly reservations: readonly MasterReservation[];
  readonly executors: readonly ExecutorRecord[];
}

/**
 * Fill in the dynamic reservations of a local cluster state file written by a pacer before the
 * file recorded them (before 2026-11-30, `LocalClusterState.reservations` absent). That pacer
 * kept its resident instances' reservations in memory only, so without this an upgraded pacer
 * restored none: a resident instance whose task ended waited for an offer of its reservation for
 * ever, its volume's data on disk but never offered again (an operator's upgrade trial of
 * 2026-11-30 found it). The scheduler's store still says which reservations its resident
 * instances hold (`recovered`: agent, role, reservation id = instance id, amounts, volumes), as a
 * Mesos agent's checkpointed reservations outlive its master; those are restored.
 *
 * Such a file's executor records also took their pools without the reservation id and volumes:
 * a pool reserved for the reservation's role, of an executor on its agent running a task of the
 * reservation's instance, gets them back, so the running task is booked on its reservation (not
 * on nothing, which would offer the reservation while its task still runs). Pure: the records
 * given are not changed.
 */
export function fillLegacyReservations(recovered: readonly MasterReservation[], executors: readonly ExecutorRecord[]): LegacyStateFilled {
  const byInstance = new Map(recovered.map((r) => [`${r.agentId}\u0000${r.reservationId}`, r]));
  return {
    reservations: recovered,
    executors: executors.map((record) => {
      const own = record.tasks.map((t) => byInstance.get(`${record.agentId}\u0000${t.instanceId}`)).find((r) => r !== undefined);
      if (own === undefined) return record;
      const pool = (p: OfferedPool): OfferedPool =>
        p.reservedFor === own.role && p.reservationId === undefined ? { ...p, reservationId: own.reservationId, volumes: own.volumes } : p;
      return { ...record, allocation: record.allocation.map(pool) };
    }),
  };
}
