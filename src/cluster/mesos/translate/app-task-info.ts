import type { TaskLaunch } from '../../../scheduler/model/launch';
import type { CommandInfo, Resource, TaskInfo } from '../codec/mesos-model';
import { agentCheckPort } from './agent-check-port';
import { appContainerInfo } from './app-container-info';
import { discoveryOf } from './discovery-to-mesos';
import { fetchUris } from './fetch-uris';
import { healthCheckToMesos } from './health-check-to-mesos';
import { killPolicyOf } from './kill-policy';
import { labelsToMesos } from './labels-to-mesos';
import { mesosTaskEnv } from './mesos-task-env';
import { taskName } from './task-name';

/**
 * The TaskInfo of an app instance's task for a LAUNCH operation (mesos-v1-scheduler-api.md §5.1,
 * §5.4): run by the command executor (or the Docker executor for `type: DOCKER` containers), so
 * `command` is set and `executor` is not. `resources` are the offered resources the core took
 * (see offer-resource-ledger.ts). Fields, all from the launch the core resolved:
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
  const container = appContainerInfo(launch);
  const healthCheck = launch.healthCheck === undefined ? undefined : healthCheckToMesos(launch.healthCheck.check, agentCheckPort(launch));
  const labels = labelsToMesos(launch.labels);
  return {
    name: taskName(launch.runSpecId),
    taskId: { value: launch.taskId },
    agentId: { value: launch.agentId },
    resources,
    command: appCommand(launch),
    ...(container === undefined ? {} : { container }),
    ...(healthCheck === undefined ? {} : { healthCheck }),
    killPolicy: killPolicyOf(launch.killGracePeriodMs),
    ...(labels === undefined ? {} : { labels }),
    discovery: discoveryOf(launch),
  };
}

function appCommand(launch: TaskLaunch): CommandInfo {
  const uris = fetchUris(launch.fetch);
  const base: CommandInfo = {
    environment: mesosTaskEnv(launch),
    ...(uris.length > 0 ? { uris } : {}),
    ...(launch.user === undefined || launch.user === '' ? {} : { user: launch.user }),
  };
  const command = launch.command;
  if (command !== undefined && 'shell' in command) return { ...base, shell: true, value: command.shell };
  const args = command?.argv ?? [];
  if (args.length === 0) return { ...base, shell: false };
  if (launch.image !== undefined) return { ...base, shell: false, arguments: [...args] };
  return { ...base, shell: false, value: args[0], arguments: [...args] };
}
