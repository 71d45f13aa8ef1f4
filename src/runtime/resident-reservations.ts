import type { MasterReservation } from '../master/master';
import type { Scheduler } from '../scheduler/index';

/**
 * The dynamic reservations the scheduler's resident instances hold, as the master model books
 * them: agent, role, reservation id (the instance id, Marathon's reservation label), the amounts
 * of the pool the instance took on it (its allocation's pool with that reservation id) and its
 * volumes. An instance whose reservation is not yet confirmed (its first RESERVE may never have
 * been made) or that holds no such pool (not placed: its amounts are not stored) is left out.
 * The local cluster restores these when its state file predates recording its own
 * (LocalCluster.start, fillLegacyReservations): an upgrade from a pacer before 2026-11-30.
 */
export function residentReservations(scheduler: Scheduler): MasterReservation[] {
  const out: MasterReservation[] = [];
  for (const spec of scheduler.runSpecs()) {
    for (const inst of scheduler.instances(spec.id)) {
      const own = inst.reservation;
      if (own === undefined || own.unconfirmed === true) continue;
      const pool = inst.allocation?.find((p) => p.reservationId === inst.instanceId && p.reservedFor === own.role);
      if (pool === undefined) continue;
      out.push({
        agentId: own.agentId, role: own.role, reservationId: inst.instanceId,
        capacity: { reservedFor: own.role, reservationId: inst.instanceId, volumes: own.volumes, cpusMilli: pool.cpusMilli, memMilli: pool.memMilli, diskMilli: pool.diskMilli, gpus: pool.gpus, ports: pool.ports },
        volumes: own.volumes,
      });
    }
  }
  return out;
}
