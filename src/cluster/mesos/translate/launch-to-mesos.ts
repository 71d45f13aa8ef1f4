import type { LaunchOperation, OfferOperation as CoreOperation } from '../../../scheduler/model/launch';
import { isReservationOperation } from '../../../scheduler/model/reservation';
import type { Offer as MesosOffer, OfferOperation } from '../codec/mesos-model';
import { appTaskInfo } from './app-task-info';
import { OfferResourceLedger } from './offer-resource-ledger';
import { podLaunchGroup } from './pod-launch-group';
import { reservationToMesos } from './reservation-to-mesos';

/** What a launch translation needs besides the operation. */
export interface LaunchContext {
  /** The framework id from SUBSCRIBED (LAUNCH_GROUP executors must carry it, §5.3). */
  readonly frameworkId: string;
  /** The Mesos offer the operation draws from, as received: resources are copied from it (§4.3). */
  readonly offer: MesosOffer;
  /** The framework's principal, set on the reservations and volumes it makes (§2.3). */
  readonly principal?: string;
}

/**
 * One core launch operation as a Mesos `Offer.Operation` (mesos-v1-scheduler-api.md §2.3):
 * `launch` → LAUNCH with one command TaskInfo (app-task-info.ts); `launchGroup` → LAUNCH_GROUP
 * with a DEFAULT executor and a task group (pod-launch-group.ts). Resources are the offered ones,
 * `allocation_info` and reservations as offered, quantities as the core took them
 * (`op.allocation`).
 *
 * Several operations of one ACCEPT must draw from the same offer without overlap: translate them
 * with {@link launchesToMesos}, which shares one ledger. Throws when an operation does not fit
 * the offer (a core bug; Mesos would answer TASK_ERROR).
 */
export function launchToMesos(op: LaunchOperation, ctx: LaunchContext): OfferOperation {
  return translate(op, ctx, new OfferResourceLedger(ctx.offer, ctx.frameworkId));
}

/**
 * Every operation of one ACCEPT, in order, drawing from `ctx.offer` one after another: launches,
 * and the reservation operations of resident instances (RESERVE, CREATE, DESTROY, UNRESERVE:
 * reservation-to-mesos.ts), whose results later operations of the same ACCEPT use, as Mesos
 * applies them in order (§2.3). A resident instance's launch draws from its own reservation
 * (the pool's `reservationId`) and takes its persistent volumes: an app task carries them in its
 * resources; a pod's executor does, and its containers mount them from the executor's sandbox.
 */
export function launchesToMesos(ops: readonly CoreOperation[], ctx: LaunchContext): OfferOperation[] {
  const ledger = new OfferResourceLedger(ctx.offer, ctx.frameworkId);
  return ops.map((op) => (isReservationOperation(op) ? reservationToMesos(op, ctx, ledger) : translate(op, ctx, ledger)));
}

function translate(op: LaunchOperation, ctx: LaunchContext, ledger: OfferResourceLedger): OfferOperation {
  if (op.kind === 'launchGroup') return podLaunchGroup(op, ctx.frameworkId, ledger);
  if (op.task.containerName !== undefined) throw new Error(`launch of ${op.task.taskId}: a LAUNCH needs an app task`);
  return { type: 'LAUNCH', launch: { taskInfos: [appTaskInfo(op.task, ledger.take(op.allocation, op.task.persistentVolumes))] } };
}
