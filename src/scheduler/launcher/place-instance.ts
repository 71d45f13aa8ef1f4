import type { CoreContext } from '../core-context';
import { appTaskId, podExecutorId, podTaskId } from '../kernel/ids';
import { isSchedulerRun } from '../model/health-check';
import type { Instance, Task } from '../model/instance';
import type { LaunchOperation, ResolvedAgentCheck, TaskLaunch } from '../model/launch';
import type { AppSpec, PodSpec } from '../model/run-spec';
import type { Offer } from '../model/offer';
import type { PersistentVolume } from '../model/reservation';
import type { RunSpecState } from '../state/run-spec-state';
import type { Reservation } from '../matcher/reserve';
import { setCondition, setInstanceRole } from '../instances/instance-lifecycle';
import { gracePeriodMs } from '../kill/kill-instance';

/**
 * The Commit step for one instance: binds a Scheduled instance to the offer's agent, creates its
 * tasks (new incarnation), counts the placement for constraints, and returns the launch operation
 * (LAUNCH for apps, LAUNCH_GROUP for pods, whose tasks all land on this one agent).
 * The caller persists the instance before accepting the offer.
 */
export function placeInstance(ctx: CoreContext, rs: RunSpecState, inst: Instance, offer: Offer, res: Reservation): LaunchOperation {
  return launchOperation(ctx, rs, inst, offer, res, undefined);
}

/**
 * The Commit step for one instance, as {@link placeInstance}; `volumes` are the persistent
 * volumes a resident instance launches with (on its own reservation).
 */
export function launchOperation(
  ctx: CoreContext,
  rs: RunSpecState,
  inst: Instance,
  offer: Offer,
  res: Reservation,
  volumes: readonly PersistentVolume[] | undefined,
): LaunchOperation {
  const nowMs = ctx.clock.nowMs();
  const spec = rs.spec;
  inst.incarnation++;
  inst.agent = offer.agent;
  // Only reservations (resident run specs) need the allocation later; the driver gets it in the op.
  inst.allocation = spec.resident ? res.allocation : undefined;
  inst.runSpecVersion = spec.version;
  inst.configVersion = spec.versionInfo.lastConfigChangeAt;
  // A resident instance keeps the role of its reservations (fact 114); others take the spec's.
  if (!spec.resident) setInstanceRole(ctx, rs, inst, spec.role);
  inst.tasks = spec.kind === 'app' ? [appTask(inst, spec, res, nowMs)] : podTasks(inst, spec, res, nowMs);
  rs.counts.add(offer.agent);
  setCondition(ctx, rs, inst, 'Provisioned');
  if (spec.kind === 'app') return { kind: 'launch', task: taskLaunch(inst, spec, inst.tasks[0], offer, volumes), allocation: res.allocation };
  const launches = inst.tasks.map((task) => taskLaunch(inst, spec, task, offer, volumes));
  return {
    kind: 'launchGroup',
    executorId: podExecutorId(inst.instanceId, inst.incarnation),
    executorResources: spec.executorResources,
    tasks: launches,
    allocation: res.allocation,
  };
}

function appTask(inst: Instance, spec: AppSpec, res: Reservation, nowMs: number): Task {
  return newTask(appTaskId(inst.instanceId, inst.incarnation), undefined, res.hostPorts, spec.resources, nowMs);
}

/** Every field set, in one order: all tasks share one object shape. */
function newTask(taskId: string, containerName: string | undefined, hostPorts: readonly number[], resources: Task['resources'], nowMs: number): Task {
  return {
    taskId,
    containerName,
    state: undefined,
    condition: 'Provisioned',
    hostPorts,
    resources,
    healthy: undefined,
    launchedAtMs: nowMs,
    startedAtMs: undefined,
    lastStatusMs: undefined,
    message: undefined,
  };
}

function podTasks(inst: Instance, spec: PodSpec, res: Reservation, nowMs: number): Task[] {
  let portIndex = 0;
  return spec.containers.map((c) => {
    const ports: number[] = [];
    for (const e of c.endpoints) if (e.hostPort !== undefined) ports.push(res.hostPorts[portIndex++]);
    return newTask(podTaskId(inst.instanceId, c.name, inst.incarnation), c.name, ports, c.resources, nowMs);
  });
}

function taskLaunch(inst: Instance, spec: AppSpec | PodSpec, task: Task, offer: Offer, volumes: readonly PersistentVolume[] | undefined): TaskLaunch {
  return {
    ...(volumes === undefined ? {} : { volumes }),
    taskId: task.taskId,
    instanceId: inst.instanceId,
    runSpecId: spec.id,
    runSpecVersion: spec.version,
    containerName: task.containerName,
    agentId: offer.agent.agentId,
    hostname: offer.agent.hostname,
    role: inst.role,
    resources: task.resources,
    hostPorts: task.hostPorts,
    healthCheck: agentCheck(spec, task),
    killGracePeriodMs: gracePeriodMs(spec, task.containerName),
    spec,
  };
}

/** The agent-run check of a task with its port resolved (Mesos runs one health check per task). */
function agentCheck(spec: AppSpec | PodSpec, task: Task): ResolvedAgentCheck | undefined {
  if (spec.kind === 'app') {
    const check = spec.healthChecks.find((c) => !isSchedulerRun(c.protocol));
    if (check === undefined) return undefined;
    return { check, port: check.port ?? task.hostPorts[check.portIndex ?? 0] };
  }
  const container = spec.containers.find((c) => c.name === task.containerName);
  const check = container?.healthCheck;
  if (container === undefined || check === undefined) return undefined;
  if (check.endpoint === undefined) return { check };
  const withHost = container.endpoints.filter((e) => e.hostPort !== undefined);
  const i = withHost.findIndex((e) => e.name === check.endpoint);
  const endpoint = container.endpoints.find((e) => e.name === check.endpoint);
  return { check, port: i >= 0 ? task.hostPorts[i] : endpoint?.containerPort };
}
