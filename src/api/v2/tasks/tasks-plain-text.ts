import type { ApiDeps } from '../../api-deps';
import { servicePortsOf, safeRunSpecId } from '../../../scheduler/index';
import type { Instance } from '../../../scheduler/model/instance';
import type { AppSpec } from '../../../scheduler/model/app';
import { appPortSlots } from '../../../scheduler/model/app-ports';
import { networkModeOf } from '../../../scheduler/model/networks';

/**
 * The script-friendly task list of `GET /v2/tasks` with `Accept: text/plain`, as Marathon 1.10 —
 * the last version that served it — wrote it (`api/EndpointsHelper.scala`; haproxy-marathon-bridge
 * and similar load-balancer scripts parse it). Columns are tab-separated; per app and service port
 * one line: `<app id with / → _>\t<servicePort>\t` then one `<address>:<port>\t` per running task.
 * An app without service ports gets one line `<id>\t \t` followed by `<host>\t` per running task.
 *
 * A service port's address for a task is the agent's host and the task's host port for it: with
 * host networking its host port of the same index, with port mappings the host port of that
 * mapping (the task's host ports hold only the mappings that have one, so the index is the
 * mapping's among those). A task without that host port is left out (never `host:0`: Marathon
 * 1.9.100 dropped those, MARATHON-8719). A container-network mapping without a host port is
 * listed as `<task IP>:<containerPort>` only when `containerNetworks` (the query parameter, a
 * comma list of network names, `*` for all) names one of its networks, as Marathon 1.10 does.
 *
 * Marathon 1.11 itself no longer serves this format (marathon-reference.md §1, "Removed or absent
 * in 1.10/1.11"); pacer keeps it because the scripts that need it still exist and a client only
 * gets it by asking for text/plain. `visible` leaves out the apps the caller may not view
 * (`--authorization_file`).
 */
export function tasksPlainText(deps: ApiDeps, visible: (appId: string) => boolean = () => true, containerNetworks = ''): string {
  const networks = new Set(containerNetworks.split(','));
  const included = networks.has('*') ? () => true : (name: string) => networks.has(name);
  let out = '';
  for (const spec of deps.scheduler.runSpecs()) {
    if (spec.kind === 'app' && visible(spec.id)) out += appLines(spec, running(deps.scheduler.instances(spec.id)), included);
  }
  return out;
}

function appLines(app: AppSpec, instances: readonly Instance[], included: (network: string) => boolean): string {
  const id = safeRunSpecId(app.id);
  const servicePorts = servicePortsOf(app);
  if (servicePorts.length === 0) {
    return `${id}\t \t${instances.map((i) => `${i.agent?.hostname ?? ''}\t`).join('')}\n`;
  }
  const hostNetworking = networkModeOf(app.networks) === 'host';
  const slots = appPortSlots(app);
  const mappings = app.container?.portMappings ?? [];
  const appNetworks = app.networks.flatMap((n) => (n.mode === 'container' && n.name !== undefined ? [n.name] : []));
  let out = '';
  servicePorts.forEach((port, i) => {
    const mapping = hostNetworking ? undefined : mappings[i];
    let endpoints: string[];
    if (mapping !== undefined && mapping.hostPort === undefined) {
      const names = mapping.networkNames.length > 0 ? mapping.networkNames : appNetworks;
      endpoints = names.some(included) ? instances.flatMap((inst) => containerEndpoint(inst, mapping.containerPort)) : [];
    } else {
      const hostPortIndex = mapping === undefined ? i : slots[i].hostPortIndex;
      endpoints = hostPortIndex === undefined ? [] : instances.flatMap((inst) => hostEndpoint(inst, hostPortIndex));
    }
    out += `${id}\t${port}\t${endpoints.map((e) => `${e}\t`).join('')}\n`;
  });
  return out;
}

/** `<host>:<host port>` of the instance's task, or nothing when it has no host port at that index. */
function hostEndpoint(inst: Instance, hostPortIndex: number): string[] {
  const hostPort = inst.tasks[0]?.hostPorts[hostPortIndex];
  return hostPort === undefined ? [] : [`${inst.agent?.hostname ?? ''}:${hostPort}`];
}

/** `<task IP>:<container port>` (the first address the cluster reported), or nothing while it reported none. */
function containerEndpoint(inst: Instance, containerPort: number): string[] {
  const address = inst.tasks[0]?.ipAddresses?.[0]?.ipAddress;
  return address === undefined ? [] : [`${address}:${containerPort}`];
}

function running(instances: readonly Instance[]): Instance[] {
  return instances.filter((i) => i.condition === 'Running');
}
