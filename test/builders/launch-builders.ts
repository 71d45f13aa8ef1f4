import { appLaunchOperation, podLaunchOperation } from '../../src/scheduler/launcher/task-launch';
import type { AppSpec } from '../../src/scheduler/model/app';
import { Instance, type Task } from '../../src/scheduler/model/instance';
import type { LaunchOperation, TaskLaunch } from '../../src/scheduler/model/launch';
import type { Offer, OfferedPool } from '../../src/scheduler/model/offer';
import type { PodSpec } from '../../src/scheduler/model/pod';
import type { ScalarResources } from '../../src/scheduler/model/resources';

/**
 * Builders of what the core hands a driver. {@link makeTaskLaunch} is a bare launch (nothing to
 * run, no environment) for tests of bookkeeping; {@link appLaunchOn} and {@link podLaunchOn} go
 * through the core's own launcher (src/scheduler/launcher/task-launch.ts), so a driver test sees
 * exactly what the core would send for a run spec.
 */

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const NO_RESOURCES: ScalarResources = { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0 };

/** A launch with every collection empty; `taskId` and `agentId` as given, the rest defaults or overrides. */
export function makeTaskLaunch(o: Partial<TaskLaunch> & { readonly taskId: string; readonly agentId: string }): TaskLaunch {
  const launch: Mutable<TaskLaunch> = {
    instanceId: `${o.taskId}.instance`,
    runSpecId: '/app',
    runSpecVersion: 'v1',
    hostname: `${o.agentId}.example`,
    role: '*',
    resources: NO_RESOURCES,
    hostPorts: [],
    env: {},
    secretEnv: [],
    secretVolumes: [],
    fetch: [],
    volumes: [],
    ports: [],
    labels: {},
    killGracePeriodMs: 3000,
    ...o,
  };
  return launch;
}

function newTask(taskId: string, containerName: string | undefined, hostPorts: readonly number[], resources: ScalarResources): Task {
  return {
    taskId, ...(containerName === undefined ? {} : { containerName }), condition: 'Provisioned', hostPorts, resources, launchedAtMs: 0,
  };
}

function newInstance(instanceId: string, spec: AppSpec | PodSpec, offer: Offer): Instance {
  return Instance.from({
    instanceId, runSpecId: spec.id, kind: spec.kind, runSpecVersion: spec.version, configVersion: spec.versionInfo.lastConfigChangeAt,
    incarnation: 1, goal: 'Running', condition: 'Provisioned', conditionSinceMs: 0, role: spec.role, agent: offer.agent, tasks: [],
  });
}

/** The core's LAUNCH of one task of `app` on `offer`, with these host ports and allocation. */
export function appLaunchOn(
  offer: Offer, app: AppSpec, o: { readonly taskId: string; readonly instanceId: string; readonly hostPorts: readonly number[]; readonly allocation: readonly OfferedPool[] },
): Extract<LaunchOperation, { kind: 'launch' }> {
  const inst = newInstance(o.instanceId, app, offer);
  const task = newTask(o.taskId, undefined, o.hostPorts, app.resources);
  inst.tasks = [task];
  return appLaunchOperation(app, inst, task, offer, o.allocation) as Extract<LaunchOperation, { kind: 'launch' }>;
}

/**
 * The core's LAUNCH_GROUP of one instance of `pod` on `offer`: `hostPortsOf` gives each
 * container's host ports (one per endpoint with a host port), `taskIdOf` its task id.
 */
export function podLaunchOn(
  offer: Offer, pod: PodSpec,
  o: {
    readonly instanceId: string; readonly executorId: string; readonly allocation: readonly OfferedPool[];
    readonly taskIdOf: (containerName: string) => string; readonly hostPortsOf: (containerName: string) => readonly number[];
  },
): Extract<LaunchOperation, { kind: 'launchGroup' }> {
  const inst = newInstance(o.instanceId, pod, offer);
  inst.tasks = pod.containers.map((c) => newTask(o.taskIdOf(c.name), c.name, o.hostPortsOf(c.name), c.resources));
  return podLaunchOperation(pod, inst, o.executorId, offer, o.allocation) as Extract<LaunchOperation, { kind: 'launchGroup' }>;
}
