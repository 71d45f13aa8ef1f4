import type { LaunchOperation, OfferOperation, TaskLaunch } from '../../src/scheduler/model/launch';
import { isReservationOperation, type ReservationOperation } from '../../src/scheduler/model/reservation';
import type { ClusterDriver } from '../../src/scheduler/ports/cluster-driver';

/** One recorded driver call, in the shape of its arguments. */
export type DriverCall =
  | {
      readonly type: 'accept';
      readonly offerId: string;
      /** The launches of the ACCEPT, in order. */
      readonly operations: readonly LaunchOperation[];
      /** Its reservation operations (RESERVE, CREATE, DESTROY, UNRESERVE), in order. */
      readonly reservations: readonly ReservationOperation[];
      readonly refuseMs: number;
    }
  | { readonly type: 'decline'; readonly offerIds: readonly string[]; readonly refuseMs: number }
  | { readonly type: 'kill'; readonly taskId: string; readonly agentId: string | undefined; readonly gracePeriodMs: number }
  | { readonly type: 'ack'; readonly agentId: string; readonly taskId: string; readonly uuid: string }
  | { readonly type: 'reconcile'; readonly tasks: readonly { taskId: string; agentId?: string }[] }
  | { readonly type: 'revive'; readonly roles: readonly string[] }
  | { readonly type: 'suppress'; readonly roles: readonly string[] }
  | { readonly type: 'updateFramework'; readonly roles: readonly string[] };

export type DriverCallType = DriverCall['type'];
export type CallOf<T extends DriverCallType> = Extract<DriverCall, { type: T }>;

/** A ClusterDriver that records every call (and forwards it to `onCall`, for an ordered effect log). */
export class RecordingDriver implements ClusterDriver {
  readonly calls: DriverCall[] = [];

  constructor(private readonly onCall: (call: DriverCall) => void = () => undefined) {}

  accept(offerId: string, operations: readonly OfferOperation[], refuseMs: number): void {
    const launches: LaunchOperation[] = [];
    const reservations: ReservationOperation[] = [];
    for (const op of operations) {
      if (isReservationOperation(op)) reservations.push(op);
      else launches.push(op);
    }
    this.record({ type: 'accept', offerId, operations: launches, reservations, refuseMs });
  }

  decline(offerIds: readonly string[], refuseMs: number): void {
    this.record({ type: 'decline', offerIds: [...offerIds], refuseMs });
  }

  kill(taskId: string, agentId: string | undefined, gracePeriodMs: number): void {
    this.record({ type: 'kill', taskId, agentId, gracePeriodMs });
  }

  acknowledge(agentId: string, taskId: string, uuid: string): void {
    this.record({ type: 'ack', agentId, taskId, uuid });
  }

  reconcile(tasks: readonly { taskId: string; agentId?: string }[]): void {
    this.record({ type: 'reconcile', tasks: tasks.map((t) => ({ ...t })) });
  }

  revive(roles: readonly string[]): void {
    this.record({ type: 'revive', roles: [...roles] });
  }

  suppress(roles: readonly string[]): void {
    this.record({ type: 'suppress', roles: [...roles] });
  }

  updateFrameworkRoles(roles: readonly string[]): void {
    this.record({ type: 'updateFramework', roles: [...roles] });
  }

  /** Calls of one type, in order. */
  of<T extends DriverCallType>(type: T): CallOf<T>[] {
    return this.calls.filter((c): c is CallOf<T> => c.type === type);
  }

  clear(): void {
    this.calls.length = 0;
  }

  private record(call: DriverCall): void {
    this.calls.push(call);
    this.onCall(call);
  }
}

/** Every task launched by a list of accept calls, in order (pod groups flattened). */
export function launchedTasks(calls: readonly DriverCall[]): TaskLaunch[] {
  const out: TaskLaunch[] = [];
  for (const c of calls) {
    if (c.type !== 'accept') continue;
    for (const op of c.operations) {
      if (op.kind === 'launch') out.push(op.task);
      else if (op.kind === 'launchGroup') out.push(...op.tasks);
    }
  }
  return out;
}
