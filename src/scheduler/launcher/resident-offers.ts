import { constraintsAccept } from '../constraints/constraints-accept';
import type { LaunchContext } from '../launch-queue/launch-context';
import type { Instance } from '../model/instance';
import type { OfferOperation } from '../model/launch';
import type { Offer, OfferedPool } from '../model/offer';
import { persistenceIdOf, persistentVolumesOf, type PersistentVolume, type ReservationOperation } from '../model/reservation';
import type { PortRange } from '../model/resources';
import type { LaunchRequest } from '../state/launch-request';
import type { RunSpecState } from '../state/run-spec-state';
import type { Reservation } from '../matcher/reserve';
import { expungeInstance, removeScheduled } from '../instances/instance-lifecycle';
import { finishDeleteIfDone } from '../instances/finish-delete';
import { setReservation } from '../instances/instance-tracker';
import { launchOperation } from './place-instance';
import { scalarShortfall } from '../matcher/plugins/scalar-filter';

/**
 * What the resident pass did with one offer: operations for the ACCEPT (the instances it relaunches
 * are in the tracker's dirty set, written before the ACCEPT: instances/instance-tracker.ts).
 */
export interface ResidentOutcome {
  readonly ops: OfferOperation[];
  /** Run specs with an instance that would have relaunched on its reservation here, left waiting: the agent is in maintenance. */
  readonly leftForMaintenance: Set<RunSpecState>;
}

/**
 * The resident pass over one offer, before ordinary matching (which never sees these pools): for
 * each dynamic reservation in the offer (a pool with `reservationId`, the instance id in its
 * labels, as Marathon's `TaskLabels.instanceIdForResource` reads `marathon_task_id`;
 * mesosphere/marathon src/main/scala/mesosphere/marathon/core/launcher/impl/TaskLabels.scala):
 * - its instance waits to relaunch (Scheduled, goal Running): LAUNCH on the reservation and its
 *   volumes, on this agent only (Marathon waits for its reservation; it never places it elsewhere),
 *   once its backoff is over, when the reservation holds the definition's resources and ports and
 *   the definition's constraints accept this agent (otherwise it waits);
 * - its instance is done (releasing) or unknown: DESTROY its volumes and UNRESERVE it, then the
 *   instance is forgotten (Marathon's unknown reservations are released the same way:
 *   OfferMatcherReconciler); an instance killed with wipe is unknown already, its reservation
 *   waiting in the run spec's `releasing` until this offer;
 * - its instance has its reservation on another agent (an earlier first launch whose RESERVE was
 *   not known to have happened, placed afresh since): this one is an orphan, released too;
 * - otherwise (its instance is starting or in backoff) the pool is left alone.
 *
 * With `maintenance` (the agent is in or about to enter its maintenance window:
 * matcher/maintenance.ts) a waiting instance does not relaunch: it keeps its reservation and
 * waits for an offer of it after the window, and its run spec is named in `leftForMaintenance`
 * (Marathon checks the window in the ResourceMatcher its launch on a reservation goes through, and
 * destroys nothing for it: core/launcher/impl/InstanceOpFactoryImpl.scala `maybeLaunchOnReservation`).
 * Releasing reservations nobody wants goes on as usual (Marathon's OfferMatcherReconciler does
 * not look at the window).
 */
export function residentOperations(ctx: LaunchContext, offer: Offer, nowMs: number, maintenance = false): ResidentOutcome {
  const out: ResidentOutcome = { ops: [], leftForMaintenance: new Set() };
  for (const pool of offer.pools) {
    const id = pool.reservationId;
    if (id === undefined || pool.reservedFor === undefined) continue;
    const rs = ctx.state.runSpecOfInstance(id);
    const inst = rs?.instances.get(id);
    if (rs === undefined || inst === undefined) {
      out.ops.push(...releaseOperations(offer, pool, pool.reservedFor, id));
      // A wiped instance's reservation (forgotten with its instance, waiting here) is released.
      if (rs?.releasing?.delete(id) === true) {
        ctx.state.demandDirty.add(rs);
        finishDeleteIfDone(ctx, rs);
      }
      continue;
    }
    if (inst.goal !== 'Running') {
      out.ops.push(...releaseOperations(offer, pool, pool.reservedFor, id));
      expungeInstance(ctx, rs, inst);
      rs.releasing?.delete(id);
      ctx.state.demandDirty.add(rs);
      finishDeleteIfDone(ctx, rs);
      continue;
    }
    const own = inst.reservation;
    if (own !== undefined && own.agentId !== offer.agent.agentId) {
      out.ops.push(...releaseOperations(offer, pool, pool.reservedFor, id));
      continue;
    }
    if (inst.condition !== 'Scheduled' || !ctx.demand.mayLaunch(rs, nowMs)) continue;
    if (maintenance) {
      out.leftForMaintenance.add(rs);
      continue;
    }
    // A definition that needs resources or ports the reservation does not hold (given more after
    // it was made) waits for one that holds them: launching took ports outside it, or none, and
    // the master refuses an allocation smaller than the task (TASK_ERROR, again at every offer).
    if (!holdsRequest(pool, rs.request)) continue;
    // Constraints are checked as for any launch, the instance itself not counted (it is not
    // placed): one brought by a config change that this agent fails makes it wait here, as
    // Marathon's launch on a reservation does (InstanceOpFactoryImpl `maybeLaunchOnReservation`).
    if (constraintsAccept(rs.request.constraints, rs.counts, offer.agent) >= 0) continue;
    removeScheduled(ctx, rs, inst);
    // The offer shows the reservation: it is this instance's, here (confirmed, or found again).
    setReservation(ctx, inst, { agentId: offer.agent.agentId, role: pool.reservedFor, volumes: pool.volumes ?? [] });
    out.ops.push(launchOperation(ctx, rs, inst, offer, onReservation(rs, pool), pool.volumes ?? []));
  }
  return out;
}

/**
 * The first launch of a new resident instance, on the resources `res` the matcher took from
 * unreserved pools: RESERVE them for the instance's role, labelled with its id; CREATE its
 * volumes; LAUNCH on the reservation (one ACCEPT, applied in order). Records the reservation.
 */
export function firstResidentLaunch(ctx: LaunchContext, rs: RunSpecState, inst: Instance, offer: Offer, res: Reservation): OfferOperation[] {
  const agentId = offer.agent.agentId;
  const role = inst.role;
  const volumes: PersistentVolume[] = persistentVolumesOf(rs.spec).map((v, i) => ({ persistenceId: persistenceIdOf(inst.instanceId, i), containerPath: v.containerPath, diskMilli: v.diskMilli }));
  const total = sum(res.allocation);
  const reserved: OfferedPool = { ...total, reservedFor: role, reservationId: inst.instanceId };
  setReservation(ctx, inst, { agentId, role, volumes, unconfirmed: true });
  const reserve: ReservationOperation = { kind: 'reserve', agentId, reservationId: inst.instanceId, role, allocation: res.allocation };
  const create: ReservationOperation = { kind: 'create', agentId, reservationId: inst.instanceId, role, volumes };
  const launch = launchOperation(ctx, rs, inst, offer, { allocation: [reserved], hostPorts: res.hostPorts }, volumes);
  return volumes.length > 0 ? [reserve, create, launch] : [reserve, launch];
}

/** DESTROY (when it has volumes) and UNRESERVE of a whole offered reservation. */
function releaseOperations(offer: Offer, pool: OfferedPool, role: string, reservationId: string): ReservationOperation[] {
  const agentId = offer.agent.agentId;
  const volumes = pool.volumes ?? [];
  const allocation: OfferedPool = { reservedFor: role, reservationId, cpusMilli: pool.cpusMilli, memMilli: pool.memMilli, diskMilli: pool.diskMilli, gpus: pool.gpus, ports: pool.ports };
  const unreserve: ReservationOperation = { kind: 'unreserve', agentId, reservationId, role, allocation: [allocation] };
  return volumes.length > 0 ? [{ kind: 'destroy', agentId, reservationId, role, volumes }, unreserve] : [unreserve];
}

/**
 * Whether `pool` holds what one instance of `request` needs: its cpus, mem, disk (its volumes'
 * included) and gpus, every fixed port of its host ports and enough others for its dynamic ones
 * (`0`): with the fixed ones in it, that is as many ports in all as it has host ports.
 */
function holdsRequest(pool: OfferedPool, request: LaunchRequest): boolean {
  if (scalarShortfall(pool, request.resources) !== undefined) return false;
  const wanted = request.hostPorts;
  if (wanted.length === 0) return true;
  const inPool = (p: number): boolean => pool.ports.some(([begin, end]) => p >= begin && p <= end);
  if (!wanted.every((p) => p === 0 || inPool(p))) return false;
  let size = 0;
  for (const [begin, end] of pool.ports) size += end - begin + 1;
  return size >= wanted.length;
}

/** A relaunch takes the whole reservation; its ports are the host ports, in order (as first assigned). */
function onReservation(rs: RunSpecState, pool: OfferedPool): Reservation {
  const ports: number[] = [];
  for (const [begin, end] of pool.ports) for (let p = begin; p <= end; p++) ports.push(p);
  const wanted = rs.request.hostPorts;
  const dynamic = ports.filter((q) => !wanted.includes(q));
  let next = 0;
  const hostPorts = wanted.map((p) => (p !== 0 ? p : dynamic[next++]));
  const { volumes: _volumes, ...amounts } = pool;
  return { allocation: [amounts], hostPorts };
}

function sum(pools: readonly OfferedPool[]): OfferedPool {
  let c = 0;
  let m = 0;
  let d = 0;
  let g = 0;
  const ports: PortRange[] = [];
  for (const p of pools) {
    c += p.cpusMilli;
    m += p.memMilli;
    d += p.diskMilli;
    g += p.gpus;
    ports.push(...p.ports);
  }
  return { cpusMilli: c, memMilli: m, diskMilli: d, gpus: g, ports: ports.sort((a, b) => a[0] - b[0]) };
}
