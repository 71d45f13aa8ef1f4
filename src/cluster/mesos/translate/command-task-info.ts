import type { TaskLaunch } from '../../../scheduler/model/launch';
import type { CommandInfo, ContainerInfo, Resource, TaskInfo } from '../codec/mesos-model';
import { agentCheckPort } from './agent-check-port';
import { discoveryOf } from './discovery-to-mesos';
import { fetchUris } from './fetch-uris';
import { checkToMesos } from './check-to-mesos';
import { healthCheckToMesos } from './health-check-to-mesos';
import { killPolicyOf } from './kill-policy';
import { labelsToMesos } from './labels-to-mesos';
import { mesosTaskEnv } from './mesos-task-env';

/** What differs between an app's task and a pod container's task; everything else is {@link commandTaskInfo}'s. */
export interface TaskInfoParts {
  /** The task's name (the app id's, or the container's name). */
  readonly name: string;
  /** How the command runs (shell or argv), without its environment, URIs and user. */
  readonly command: Pick<CommandInfo, 'shell' | 'value' | 'arguments'>;
  readonly container: ContainerInfo | undefined;
}

/**
 * The TaskInfo of one task the core resolved (mesos-v1-scheduler-api.md §5.1, §5.4), for an app's
 * LAUNCH (app-task-info.ts) and for each task of a pod's LAUNCH_GROUP (pod-launch-group.ts) alike:
 * `task_id`, `agent_id`, the offered `resources` the core took; the `command` with the task
 * environment (mesos-task-env.ts), the `fetch` URIs and the `user`; the agent-run `health_check`
 * (health-check-to-mesos.ts); the `check` (check-to-mesos.ts); `kill_policy.grace_period` from the launch's grace period;
 * `labels`; `discovery` from its named ports (discovery-to-mesos.ts). The one assembly of both.
 */
export function commandTaskInfo(launch: TaskLaunch, resources: Resource[], parts: TaskInfoParts): TaskInfo {
  const healthCheck = launch.healthCheck === undefined ? undefined : healthCheckToMesos(launch.healthCheck.check, agentCheckPort(launch));
  const labels = labelsToMesos(launch.labels);
  const uris = fetchUris(launch.fetch);
  const command: CommandInfo = {
    environment: mesosTaskEnv(launch),
    ...(uris.length > 0 ? { uris } : {}),
    ...(launch.user === undefined || launch.user === '' ? {} : { user: launch.user }),
    ...parts.command,
  };
  return {
    name: parts.name,
    taskId: { value: launch.taskId },
    agentId: { value: launch.agentId },
    resources,
    command,
    ...(parts.container === undefined ? {} : { container: parts.container }),
    ...(healthCheck === undefined ? {} : { healthCheck }),
    killPolicy: killPolicyOf(launch.killGracePeriodMs),
    ...(launch.check === undefined ? {} : { check: checkToMesos(launch.check) }),
    ...(labels === undefined ? {} : { labels }),
    discovery: discoveryOf(launch),
  };
}
