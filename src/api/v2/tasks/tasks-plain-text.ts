import type { ApiDeps } from '../../api-deps';
import { servicePortsOf, safeRunSpecId } from '../../../scheduler/index';
import type { Instance } from '../../../scheduler/model/instance';
import type { AppSpec } from '../../../scheduler/model/app';

/**
 * The script-friendly task list of `GET /v2/tasks` with `Accept: text/plain`, as Marathon wrote it
 * before 1.11 (haproxy-marathon-bridge and similar load-balancer scripts parse it). Columns are
 * tab-separated; per app and service port one line: `<app id with / → _>\t<servicePort>\t` then
 * `<host>:<hostPort>\t` for every running task. An app without service ports gets one line
 * `<id>\t \t` followed by `<host> ` per running task.
 *
 * Marathon 1.11 itself no longer serves this format (marathon-reference.md §1, "Removed or absent
 * in 1.10/1.11"); pacer keeps it because the scripts that need it still exist and a client only
 * gets it by asking for text/plain. `visible` leaves out the apps the caller may not view
 * (`--authorization_file`).
 */
export function tasksPlainText(deps: ApiDeps, visible: (appId: string) => boolean = () => true): string {
  let out = '';
  for (const spec of deps.scheduler.runSpecs()) {
    if (spec.kind === 'app' && visible(spec.id)) out += appLines(spec, running(deps.scheduler.instances(spec.id)));
  }
  return out;
}

function appLines(app: AppSpec, instances: readonly Instance[]): string {
  const id = safeRunSpecId(app.id);
  const servicePorts = servicePortsOf(app);
  if (servicePorts.length === 0) {
    return `${id}\t \t${instances.map((i) => `${i.agent?.hostname ?? ''} `).join('')}\n`;
  }
  let out = '';
  servicePorts.forEach((port, i) => {
    const endpoints = instances.map((inst) => `${inst.agent?.hostname ?? ''}:${inst.tasks[0]?.hostPorts[i] ?? 0}\t`);
    out += `${id}\t${port}\t${endpoints.join('')}\n`;
  });
  return out;
}

function running(instances: readonly Instance[]): Instance[] {
  return instances.filter((i) => i.condition === 'Running');
}
