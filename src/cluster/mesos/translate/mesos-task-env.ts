import type { TaskLaunch } from '../../../scheduler/model/launch';
import type { Environment, EnvironmentVariable } from '../codec/mesos-model';

/** Variables the Mesos executor sets itself for every task; pacer must not send its own. */
const SET_BY_MESOS = ['MESOS_TASK_ID', 'MESOS_SANDBOX'];

/**
 * The environment of a Mesos task: the launch's (Marathon's task variables — apps: `HOST`,
 * `PORT0..n`, `PORT`, `PORTS`, `PORT_<NAME>`, `MARATHON_APP_ID`, `MARATHON_APP_VERSION`, resource
 * and label variables; pods: `HOST`, `ENDPOINT_<NAME>` of every container, `MARATHON_CONTAINER_ID`,
 * … — with the definition's own `env` / `environment` over them, as the core's launcher resolved
 * them for every cluster: `scheduler/launcher/task-env.ts`), minus what Mesos
 * sets itself (`MESOS_TASK_ID`, `MESOS_SANDBOX`, even when the definition sets them). Under
 * Mesos the agent provides the base environment (`PATH`, `HOME`, …), so pacer sends those only
 * when the definition sets them. A variable whose value is a secret (`{"secret": "<name>"}`) goes
 * as a `SECRET` variable holding a `Secret` of type `REFERENCE` named by the secret's `source`
 * (mesos.proto `Environment.Variable`, `Secret.Reference`; the shape Marathon's
 * `SecretSerializer.scala` builds): the agent's secret resolver fetches the value, which pacer
 * never sees. A reference to a secret the definition does not declare cannot be sent: it
 * throws, and the launch is refused (TASK_ERROR). Variables are sorted by name so that the
 * TaskInfo is deterministic.
 */
export function mesosTaskEnv(launch: TaskLaunch): Environment {
  const env = launch.env;
  const secrets = launch.secretEnv;
  const variables = new Map<string, EnvironmentVariable>(Object.entries(env).map(([name, value]) => [name, { name, value }]));
  for (const ref of secrets) {
    if (ref.source === undefined) throw new Error(`environment variable ${ref.variable} references the undeclared secret '${ref.secret}'`);
    variables.set(ref.variable, { name: ref.variable, type: 'SECRET', secret: { type: 'REFERENCE', reference: { name: ref.source } } });
  }
  for (const name of SET_BY_MESOS) variables.delete(name);
  return { variables: [...variables.keys()].sort().map((name) => variables.get(name) as EnvironmentVariable) };
}
