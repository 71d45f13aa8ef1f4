import type { LaunchContext } from '../launch-queue/launch-context';
import { podExecutorId, podTaskId } from '../kernel/ids';
import { newTask, type Instance, type Task } from '../model/instance';
import type { LaunchOperation } from '../model/launch';
import type { PodSpec } from '../model/pod';
import type { Offer } from '../model/offer';
import type { PersistentVolume } from '../model/reservation';
import type { RunSpecState } from '../state/run-spec-state';
import type { Reservation } from '../matcher/reserve';
import { place } from '../instances/instance-tracker';
import { placedAppLaunch, podLaunchOperation } from './task-launch';

/**
 * The Commit step for one instance: binds a Scheduled instance to the offer's agent, creates its
 * tasks (new incarnation), counts the placement for constraints, and returns the launch operation
 * (LAUNCH for apps, LAUNCH_GROUP for pods, whose tasks all land on this one agent).
 * The caller persists the instance before accepting the offer.
 */
export function placeInstance(ctx: LaunchContext, rs: RunSpecState, inst: Instance, offer: Offer, res: Reservation): LaunchOperation {
  return launchOperation(ctx, rs, inst, offer, res, undefined);
}

/**
 * The Commit step for one instance, as {@link placeInstance}; `volumes` are the persistent
 * volumes a resident instance launches with (on its own reservation).
 */
export function launchOperation(
  ctx: LaunchContext,
  rs: RunSpecState,
  inst: Instance,
  offer: Offer,
  res: Reservation,
  volumes: readonly PersistentVolume[] | undefined,
): LaunchOperation {
  const spec = rs.spec;
  const incarnation = inst.incarnation + 1;
  // Only reservations (resident run specs) need the allocation later; the driver gets it in the op.
  // A resident instance keeps the role of its reservations (fact 114); others take the spec's.
  const allocation = spec.resident ? res.allocation : undefined;
  let op: LaunchOperation;
  if (spec.kind === 'app') {
    // Neither the instance nor the operation makes the task's Task or id now: the instance makes
    // them when its tasks are first read (model/instance.ts), the operation when a driver reads it.
    place(ctx, rs, inst, incarnation, offer.agent, allocation, res);
    op = placedAppLaunch(spec, inst, incarnation, res.hostPorts, offer, res.allocation);
  } else {
    place(ctx, rs, inst, incarnation, offer.agent, allocation, podTasks(inst, incarnation, spec, res, ctx.clock.nowMs()));
    op = podLaunchOperation(spec, inst, podExecutorId(inst.instanceId, inst.incarnation), offer, res.allocation);
  }
  return volumes === undefined ? op : withPersistentVolumes(op, volumes);
}

function podTasks(inst: Instance, incarnation: number, spec: PodSpec, res: Reservation, nowMs: number): Task[] {
  let portIndex = 0;
  return spec.containers.map((c) => {
    const ports: number[] = [];
    for (const e of c.endpoints) if (e.hostPort !== undefined) ports.push(res.hostPorts[portIndex++]);
    return newTask(podTaskId(inst.instanceId, c.name, incarnation), c.name, ports, c.resources, nowMs);
  });
}

/** The launch with a resident instance's persistent volumes on each of its tasks. */
function withPersistentVolumes(op: LaunchOperation, persistentVolumes: readonly PersistentVolume[]): LaunchOperation {
  // Built key by key: an app's operation is a class whose resolved task is a getter (task-launch.ts).
  if (op.kind === 'launch') return { kind: 'launch', task: { ...op.task, persistentVolumes }, allocation: op.allocation };
  return { ...op, tasks: op.tasks.map((t) => ({ ...t, persistentVolumes })) };
}
