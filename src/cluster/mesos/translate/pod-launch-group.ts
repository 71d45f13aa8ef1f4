import type { LaunchOperation, TaskLaunch } from '../../../scheduler/model/launch';
import type { ExecutorInfo, OfferOperation, Resource, TaskInfo } from '../codec/mesos-model';
import { commandTaskInfo } from './command-task-info';
import { labelsToMesos } from './labels-to-mesos';
import type { OfferResourceLedger } from './offer-resource-ledger';
import { podExecutorContainer, podTaskContainer } from './pod-container-info';
import { splitAllocation } from './split-allocation';

type LaunchGroup = Extract<LaunchOperation, { kind: 'launchGroup' }>;

/**
 * The LAUNCH_GROUP of one pod instance (mesos-v1-scheduler-api.md §5.3, §5.4): a DEFAULT
 * executor and one task per container, delivered atomically to one agent.
 *
 * - Executor: `type: DEFAULT`, `executor_id` = the core's executor id (unique per instance),
 *   `framework_id` set (the master does not fill it for LAUNCH_GROUP, §5.3), `resources` = the
 *   pod's `executorResources` (spec 2.1.4: 0.1 cpus, 32 MiB, 10 MiB disk by default), its
 *   `container` carrying the pod networks (pod-container-info.ts), `labels` = the pod's labels.
 * - Tasks: `name` = the container name, `command` (the `exec.command.shell` through the shell;
 *   without one, no shell and no value: the image's entrypoint), environment, artifacts,
 *   `user`, `container`, agent-run `health_check`, `kill_policy` from
 *   `lifecycle.killGracePeriodSeconds`, the container's labels and endpoints as `discovery`.
 *
 * The allocation is split between the executor and the tasks (split-allocation.ts) and each
 * share is turned into offered resources by `ledger`. A resident pod launches on its own
 * reservation; its persistent volumes are resources of the executor (mounted in the executor's
 * sandbox at the volume's name), which the containers mount through `SANDBOX_PATH` / `PARENT`
 * (the launcher resolves those mounts), as Marathon launches resident pods.
 */
export function podLaunchGroup(op: LaunchGroup, frameworkId: string, ledger: OfferResourceLedger): OfferOperation {
  if (op.tasks.length === 0) throw new Error(`launch group ${op.executorId}: no pod tasks`);
  // A resident pod's persistent volumes belong to its executor (the containers mount them from its sandbox).
  const volumes = op.tasks[0].persistentVolumes ?? [];
  const volumeDiskMilli = volumes.reduce((n, v) => n + v.diskMilli, 0);
  const executorResources = { ...op.executorResources, diskMilli: op.executorResources.diskMilli + volumeDiskMilli };
  const consumers = [{ resources: executorResources, hostPorts: [] }, ...op.tasks];
  const [executorShare, ...taskShares] = splitAllocation(op.allocation, consumers).map((pools, i) => ledger.take(pools, i === 0 ? volumes : []));
  const executor = executorInfo(op, frameworkId, executorShare);
  const tasks = op.tasks.map((task, i) => podTaskInfo(task, taskShares[i]));
  return { type: 'LAUNCH_GROUP', launchGroup: { executor, taskGroup: { tasks } } };
}

function executorInfo(op: LaunchGroup, frameworkId: string, resources: Resource[]): ExecutorInfo {
  const container = podExecutorContainer(op.networking);
  const labels = labelsToMesos(op.labels);
  return {
    type: 'DEFAULT',
    executorId: { value: op.executorId },
    frameworkId: { value: frameworkId },
    resources,
    ...(container === undefined ? {} : { container }),
    ...(labels === undefined ? {} : { labels }),
  };
}

function podTaskInfo(launch: TaskLaunch, resources: Resource[]): TaskInfo {
  const command = launch.command;
  const shell = command !== undefined && 'shell' in command && command.shell !== '' ? command.shell : undefined;
  return commandTaskInfo(launch, resources, {
    name: launch.containerName ?? launch.taskId,
    command: shell === undefined ? { shell: false } : { shell: true, value: shell },
    container: podTaskContainer(launch),
  });
}
