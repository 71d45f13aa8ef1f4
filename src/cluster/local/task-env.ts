import type { TaskLaunch } from '../../scheduler/model/launch';

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The environment of a task process, as Marathon and the Mesos executor give it. Precedence,
 * lowest first: `PATH`, `HOME`, `LANG`, `LC_ALL`, `TZ`, `TMPDIR` from pacer's own environment
 * (only these: pacer's configuration is none of the task's business); the launch's environment
 * (Marathon's task variables with the definition's own `env` / `environment` over them, as the
 * core's launcher resolves them for every cluster: `scheduler/launcher/task-env.ts`); the
 * executor's `MESOS_TASK_ID` and `MESOS_SANDBOX`, which nothing overrides.
 * `MARATHON_APP_DOCKER_IMAGE` never appears: tasks with an image are refused before they get here.
 */
export function taskEnv(launch: TaskLaunch, sandbox: string): Record<string, string> {
  return {
    ...hostBasics(),
    ...launch.env,
    MESOS_TASK_ID: launch.taskId,
    MESOS_SANDBOX: sandbox,
  };
}

/** The few variables of pacer's own environment a task inherits, so that commands behave as on the host. */
const HOST_BASICS = ['HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'] as const;

function hostBasics(): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? DEFAULT_PATH };
  for (const name of HOST_BASICS) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
