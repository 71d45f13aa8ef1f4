import type { TaskLaunch } from '../../../scheduler/model/launch';
import type { Resource, TaskInfo } from '../codec/mesos-model';
import { appContainerInfo } from './app-container-info';
import { commandTaskInfo, type TaskInfoParts } from './command-task-info';
import { taskName } from './task-name';

/**
 * The TaskInfo of an app instance's task for a LAUNCH operation (mesos-v1-scheduler-api.md §5.1,
 * §5.4): run by the command executor (or the Docker executor for `type: DOCKER` containers), so
 * `command` is set and `executor` is not. `resources` are the offered resources the core took
 * (see offer-resource-ledger.ts). Fields, all from the launch the core resolved (assembled by
 * command-task-info.ts, as a pod's tasks are):
 *
 * - `name` from the app id (task-name.ts), `task_id`, `agent_id`;
 * - `command`: `cmd` through the shell; `args` without a shell (`value` = argv[0] and `arguments`
 *   = the full argv, §5.2 — or only `arguments` when an image's entrypoint runs them); the task
 *   environment (mesos-task-env.ts), the `fetch` URIs and the `user`;
 * - `container` when the app needs one (app-container-info.ts);
 * - `health_check` for the app's agent-run check (health-check-to-mesos.ts);
 * - `kill_policy.grace_period` = `taskKillGracePeriodSeconds` (spec 2.4; default 3 s);
 * - `labels` = the app's labels; `discovery` = its named ports (discovery-to-mesos.ts).
 */
export function appTaskInfo(launch: TaskLaunch, resources: Resource[]): TaskInfo {
  return commandTaskInfo(launch, resources, { name: taskName(launch.runSpecId), command: appCommand(launch), container: appContainerInfo(launch) });
}

function appCommand(launch: TaskLaunch): TaskInfoParts['command'] {
  const command = launch.command;
  if (command !== undefined && 'shell' in command) return { shell: true, value: command.shell };
  const args = command?.argv ?? [];
  if (args.length === 0) return { shell: false };
  if (launch.image !== undefined) return { shell: false, arguments: [...args] };
  return { shell: false, value: args[0], arguments: [...args] };
}
