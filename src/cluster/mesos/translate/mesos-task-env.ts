import { marathonTaskEnv } from '../../local/task-env';
import type { TaskLaunch } from '../../../scheduler/model/launch';
import type { Environment } from '../codec/mesos-model';

/** Variables the Mesos executor sets itself for every task; pacer must not send its own. */
const SET_BY_MESOS = ['MESOS_TASK_ID', 'MESOS_SANDBOX'];

/**
 * The environment of a Mesos task: Marathon's task variables (apps: `HOST`, `PORT0..n`, `PORT`,
 * `PORTS`, `PORT_<NAME>`, `MARATHON_APP_ID`, `MARATHON_APP_VERSION`, resource and label variables;
 * pods: `HOST`, `ENDPOINT_<NAME>` of every container, `MARATHON_CONTAINER_ID`, …) with the
 * definition's own `env` / `environment` over them — the same set and precedence the local
 * cluster gives (`local/task-env.ts`, reused so the two clusters cannot drift), minus what Mesos
 * sets itself (`MESOS_TASK_ID`, `MESOS_SANDBOX`, even when the definition sets them). Under
 * Mesos the agent provides the base environment (`PATH`, `HOME`, …), so pacer sends those only
 * when the definition sets them. Variables are sorted by name so that the TaskInfo is
 * deterministic.
 */
export function mesosTaskEnv(launch: TaskLaunch, group: readonly TaskLaunch[]): Environment {
  const env = marathonTaskEnv(launch, group);
  for (const name of SET_BY_MESOS) delete env[name];
  const names = Object.keys(env).sort();
  return { variables: names.map((name) => ({ name, value: env[name] })) };
}
