import { gracePeriodMs } from '../kill/kill-instance';
import type { AppSpec } from '../model/app';
import { healthCheckPort } from '../model/health-check-port';
import { appTaskId } from '../kernel/ids';
import { isSchedulerRun } from '../model/health-check';
import type { Instance, Task } from '../model/instance';
import type {
  LaunchCommand, LaunchDocker, LaunchImage, LaunchNetworking, LaunchOperation, LaunchPort, LaunchPortMapping, LaunchSecretEnv, LaunchVolume,
  LaunchCheck, ResolvedAgentCheck, TaskLaunch,
} from '../model/launch';
import { networkModeOf } from '../model/networks';
import type { AgentInfo } from '../model/agent';
import type { Offer, OfferedPool } from '../model/offer';
import type { PodContainer, PodSpec } from '../model/pod';
import type { SecretEnv, Secrets } from '../model/secrets';
import { appLaunchCheck, podLaunchCheck } from './launch-check';
import { appTaskEnv, podTaskEnv } from './task-env';
import { podEndpointPort } from './pod-endpoint-port';

/** The facts of one placement every task of the instance shares, as they were when it was placed. */
interface Placement {
  readonly instanceId: string;
  /** The instance's role at the placement (a later relaunch may give it another). */
  readonly role: string;
  readonly agent: AgentInfo;
}

/**
 * The LAUNCH of an app instance's task: the task resolved against the app (command, environment,
 * image, volumes, networking with the task's host ports, discovery ports, agent-run health check
 * with its port, the app's `check` with its port: launch-check.ts) — all a driver needs, so that no driver reads the run spec.
 *
 * The resolved task is built when it is first read ({@link AppLaunch}): the operation holds the
 * facts of the placement (the app, the task, the agent, the instance's id and role then), all
 * immutable, so what a driver reads is what building it at once would have given.
 */
export function appLaunchOperation(app: AppSpec, inst: Instance, task: LaunchedTask, offer: Offer, allocation: readonly OfferedPool[]): LaunchOperation {
  return new AppLaunch(app, inst.instanceId, inst.role, offer.agent, allocation, task.taskId, 0, task.hostPorts, task.resources);
}

/**
 * The LAUNCH of the app instance just placed as `incarnation` (launcher/place-instance.ts): as
 * {@link appLaunchOperation} of its task, whose id ({@link appTaskId}) is made only when the
 * resolved task is read, so a placement makes no task id a driver does not read.
 */
export function placedAppLaunch(
  app: AppSpec, inst: Instance, incarnation: number, hostPorts: readonly number[], offer: Offer, allocation: readonly OfferedPool[],
): LaunchOperation {
  return new AppLaunch(app, inst.instanceId, inst.role, offer.agent, allocation, undefined, incarnation, hostPorts, app.resources);
}

/** What a launch reads of its task. */
type LaunchedTask = Pick<Task, 'taskId' | 'containerName' | 'hostPorts' | 'resources'>;

/**
 * An app's LAUNCH whose `task` (the resolved {@link TaskLaunch}) is built on its first read and
 * kept: a placement costs the few objects of its facts, and the environment, ports, networking
 * and health check of a task are resolved only for a driver that reads them (every real driver
 * does, once; bench:match's in-process cluster books the allocation and reads no task). The
 * placement's facts are private fields, so the object's own properties are `kind` and
 * `allocation`, and `toJSON` gives `{ kind, task, allocation }` as a plain operation's JSON.
 * Immutable as seen from outside: every read of `task` returns the same object. A copy must name
 * `task` (`{ kind, task: op.task, allocation }`): an object spread copies own properties only, so
 * `{ ...op }` has no task.
 */
class AppLaunch {
  readonly kind = 'launch' as const;
  readonly allocation: readonly OfferedPool[];
  readonly #app: AppSpec;
  readonly #instanceId: string;
  readonly #role: string;
  readonly #agent: AgentInfo;
  /** The task's id; undefined: {@link appTaskId} of the instance and `#incarnation`, made when resolved. */
  readonly #taskId: string | undefined;
  readonly #incarnation: number;
  readonly #hostPorts: readonly number[];
  readonly #resources: Task['resources'];
  #resolved: TaskLaunch | undefined = undefined;

  constructor(
    app: AppSpec, instanceId: string, role: string, agent: AgentInfo, allocation: readonly OfferedPool[],
    taskId: string | undefined, incarnation: number, hostPorts: readonly number[], resources: Task['resources'],
  ) {
    this.allocation = allocation;
    this.#app = app;
    this.#instanceId = instanceId;
    this.#role = role;
    this.#agent = agent;
    this.#taskId = taskId;
    this.#incarnation = incarnation;
    this.#hostPorts = hostPorts;
    this.#resources = resources;
  }

  get task(): TaskLaunch {
    if (this.#resolved === undefined) {
      const task: LaunchedTask = {
        taskId: this.#taskId ?? appTaskId(this.#instanceId, this.#incarnation), containerName: undefined,
        hostPorts: this.#hostPorts, resources: this.#resources,
      };
      this.#resolved = appTaskLaunch(this.#app, { instanceId: this.#instanceId, role: this.#role, agent: this.#agent }, task);
    }
    return this.#resolved;
  }

  toJSON(): { kind: 'launch'; task: TaskLaunch; allocation: readonly OfferedPool[] } {
    return { kind: this.kind, task: this.task, allocation: this.allocation };
  }
}

/**
 * The LAUNCH_GROUP of a pod instance: one task per container (each resolved like an app's, the
 * environment naming every container's endpoints), the executor's resources and labels, and the
 * pod's networking with every container's endpoints bound to its host ports.
 */
export function podLaunchOperation(
  pod: PodSpec, inst: Instance, executorId: string, offer: Offer, allocation: readonly OfferedPool[],
): LaunchOperation {
  const hostPortsOf = (name: string): readonly number[] | undefined => inst.tasks.find((t) => t.containerName === name)?.hostPorts;
  const placement: Placement = { instanceId: inst.instanceId, role: inst.role, agent: offer.agent };
  const tasks = inst.tasks.map((task) => podTaskLaunch(pod, placement, task, hostPortsOf));
  return {
    kind: 'launchGroup', executorId, executorResources: pod.executorResources, labels: pod.labels,
    networking: podNetworking(pod, hostPortsOf), tasks, allocation,
  };
}

type Resolved = 'env' | 'secretEnv' | 'secretVolumes' | 'fetch' | 'volumes' | 'ports' | 'labels';

function baseLaunch(p: Placement, task: LaunchedTask, runSpec: AppSpec | PodSpec): Omit<TaskLaunch, Resolved> {
  return {
    taskId: task.taskId,
    instanceId: p.instanceId,
    runSpecId: runSpec.id,
    runSpecVersion: runSpec.version,
    containerName: task.containerName,
    agentId: p.agent.agentId,
    hostname: p.agent.hostname,
    role: p.role,
    resources: task.resources,
    hostPorts: task.hostPorts,
    killGracePeriodMs: gracePeriodMs(runSpec, task.containerName),
  };
}

function appTaskLaunch(app: AppSpec, p: Placement, task: LaunchedTask): TaskLaunch {
  const parts = appLaunchParts(app);
  const hostPorts = task.hostPorts;
  // The same keys in the same order as every other launch (baseLaunch's, then the resolved ones):
  // one object shape, built by assignment rather than by spreading.
  const launch = baseLaunch(p, task, app) as Mutable<TaskLaunch>;
  if (parts.command !== undefined) launch.command = parts.command;
  launch.env = appTaskEnv(app, { taskId: task.taskId, hostname: p.agent.hostname, hostPorts, resources: task.resources });
  launch.secretEnv = parts.secretEnv;
  launch.secretVolumes = parts.secretVolumes;
  if (app.user !== undefined) launch.user = app.user;
  launch.fetch = app.fetch;
  if (parts.image !== undefined) launch.image = parts.image;
  if (parts.docker !== undefined) launch.docker = parts.docker;
  launch.volumes = parts.volumes;
  const noPorts = hostPorts.length === 0 ? parts.noPorts : undefined;
  launch.networking = noPorts?.networking ?? appNetworking(app, hostPorts);
  launch.ports = noPorts?.ports ?? appPorts(app, hostPorts);
  launch.labels = app.labels;
  const healthCheck = noPorts === undefined ? appAgentCheck(app, hostPorts) : noPorts.healthCheck;
  if (healthCheck !== undefined) launch.healthCheck = healthCheck;
  const check = noPorts === undefined ? appLaunchCheck(app, hostPorts) : noPorts.check;
  if (check !== undefined) launch.check = check;
  return launch;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * What every launch of one app shares, whatever its agent and host ports (and, for tasks without
 * host ports, its networking, discovery ports and agent check too). Computed once per `AppSpec`
 * object and kept in a WeakMap keyed by it: run specs are immutable (a change makes a new object),
 * so a launch gets exactly what it would compute, and a big scale-up resolves the app once rather
 * than once per instance. Launches share these values; they are read-only, as the whole TaskLaunch is.
 */
interface AppLaunchParts {
  readonly command: LaunchCommand | undefined;
  readonly secretEnv: readonly LaunchSecretEnv[];
  readonly secretVolumes: readonly string[];
  readonly image: LaunchImage | undefined;
  readonly docker: LaunchDocker | undefined;
  readonly volumes: readonly LaunchVolume[];
  readonly noPorts: {
    readonly networking: LaunchNetworking;
    readonly ports: readonly LaunchPort[];
    readonly healthCheck: ResolvedAgentCheck | undefined;
    readonly check: LaunchCheck | undefined;
  };
}

const appParts = new WeakMap<AppSpec, AppLaunchParts>();

function appLaunchParts(app: AppSpec): AppLaunchParts {
  const known = appParts.get(app);
  if (known !== undefined) return known;
  const docker = app.container?.docker;
  const parts: AppLaunchParts = {
    command: appCommand(app),
    secretEnv: secretEnvOf([app], app.secrets),
    secretVolumes: (app.container?.volumes ?? []).flatMap((v) => (v.kind === 'secret' ? [v.secret] : [])),
    image: docker === undefined ? undefined : { kind: 'DOCKER', id: docker.image, forcePull: docker.forcePullImage === true },
    docker: docker !== undefined && app.container?.type === 'DOCKER'
      ? { privileged: docker.privileged === true, parameters: docker.parameters ?? [] } : undefined,
    volumes: appVolumes(app),
    noPorts: { networking: appNetworking(app, []), ports: appPorts(app, []), healthCheck: appAgentCheck(app, []), check: appLaunchCheck(app, []) },
  };
  appParts.set(app, parts);
  return parts;
}

function podTaskLaunch(
  pod: PodSpec, p: Placement, task: Task, hostPortsOf: (name: string) => readonly number[] | undefined,
): TaskLaunch {
  const container = pod.containers.find((c) => c.name === task.containerName) as PodContainer;
  const exec = container.exec?.command;
  const user = container.user ?? pod.user;
  const image = container.image;
  const healthCheck = podAgentCheck(pod, container, task.hostPorts);
  const check = podLaunchCheck(pod, container, task.hostPorts);
  return {
    ...baseLaunch(p, task, pod),
    ...(exec !== undefined && 'shell' in exec && exec.shell !== '' ? { command: { shell: exec.shell } } : {}),
    env: podTaskEnv(pod, container, { taskId: task.taskId, hostname: p.agent.hostname, hostPorts: task.hostPorts, resources: task.resources }, hostPortsOf),
    secretEnv: secretEnvOf([pod, container], pod.secrets),
    secretVolumes: pod.volumes.flatMap((v) => (v.kind === 'secret' ? [v.secret] : [])),
    ...(user === undefined ? {} : { user }),
    fetch: container.artifacts,
    ...(image === undefined ? {} : { image: { kind: image.kind, id: image.id, forcePull: image.forcePull } }),
    volumes: podVolumes(pod, container),
    ports: podPorts(container, task.hostPorts),
    labels: container.labels,
    ...(healthCheck === undefined ? {} : { healthCheck }),
    ...(check === undefined ? {} : { check }),
  };
}

/**
 * The variables of the task's environment whose final value is a secret: the layers (the app; or
 * the pod, then the container, which wins) merged as their plain variables are, each secret with
 * the `source` the run spec declares for it.
 */
function secretEnvOf(layers: readonly { env: Readonly<Record<string, string>>; envSecrets: SecretEnv }[], secrets: Secrets): LaunchSecretEnv[] {
  const merged = new Map<string, string | undefined>();
  for (const layer of layers) {
    for (const name of Object.keys(layer.env)) merged.set(name, undefined);
    for (const [name, secret] of Object.entries(layer.envSecrets)) merged.set(name, secret);
  }
  const out: LaunchSecretEnv[] = [];
  for (const [variable, secret] of merged) {
    if (secret === undefined) continue;
    const source = secrets[secret]?.source;
    out.push({ variable, secret, ...(source === undefined || source === '' ? {} : { source }) });
  }
  return out;
}

function appCommand(app: AppSpec): LaunchCommand | undefined {
  if (app.cmd !== undefined) return { shell: app.cmd };
  return app.args !== undefined && app.args.length > 0 ? { argv: app.args } : undefined;
}

/** The agent-run check of an app task (Mesos runs one health check per task), its port resolved. */
function appAgentCheck(app: AppSpec, hostPorts: readonly number[]): ResolvedAgentCheck | undefined {
  const check = app.healthChecks.find((c) => !isSchedulerRun(c.protocol));
  if (check === undefined) return undefined;
  const port = healthCheckPort(app, check, hostPorts);
  const mapping = networkModeOf(app.networks) !== 'host' && check.port === undefined && check.portIndex !== undefined
    ? app.container?.portMappings[check.portIndex] : undefined;
  return { check, ...(port === undefined ? {} : { port }), ...(mapping === undefined ? {} : { containerPort: mapping.containerPort }) };
}

/** A pod container's check, its endpoint's host port resolved (its container port too, on container networking). */
function podAgentCheck(pod: PodSpec, container: PodContainer, hostPorts: readonly number[]): ResolvedAgentCheck | undefined {
  const check = container.healthCheck;
  if (check === undefined) return undefined;
  if (check.endpoint === undefined) return { check };
  const { port, containerPort } = podEndpointPort(pod, container, hostPorts, check.endpoint);
  return { check, ...(port === undefined ? {} : { port }), ...(containerPort === undefined ? {} : { containerPort }) };
}

/** An app's host volumes (persistent, external and secret volumes are not mounted by pacer's drivers). */
function appVolumes(app: AppSpec): LaunchVolume[] {
  return (app.container?.volumes ?? []).flatMap((v): LaunchVolume[] => {
    if (v.kind !== 'host' || v.containerPath === '' || v.hostPath === '') return [];
    return [{ kind: 'host', containerPath: v.containerPath, hostPath: v.hostPath, mode: v.mode === 'RO' ? 'RO' : 'RW' }];
  });
}

/**
 * A pod container's volume mounts joined with the pod's volumes: an absolute host volume is a
 * path of the agent; an ephemeral volume (or a relative host one) a directory of the executor's
 * sandbox shared by the containers. A persistent volume (a resident pod) is mounted the same
 * way: it lives in the executor's sandbox at the volume's name (the Mesos driver gives the volume
 * to the executor; the local cluster links it into each task's sandbox at that name).
 */
function podVolumes(pod: PodSpec, container: PodContainer): LaunchVolume[] {
  return container.volumeMounts.flatMap((mount): LaunchVolume[] => {
    const volume = pod.volumes.find((v) => v.name === mount.name);
    if (volume === undefined || mount.mountPath === '') return [];
    const mode = mount.readOnly === true ? 'RO' : 'RW';
    if (volume.kind === 'persistent') return [{ kind: 'sandbox', containerPath: mount.mountPath, path: volume.name, mode }];
    const host = volume.kind === 'host' && volume.host !== '' ? volume.host : undefined;
    if (host !== undefined && host.startsWith('/')) return [{ kind: 'host', containerPath: mount.mountPath, hostPath: host, mode }];
    return [{ kind: 'sandbox', containerPath: mount.mountPath, path: host ?? volume.name, mode }];
  });
}

function appNetworking(app: AppSpec, hostPorts: readonly number[]): LaunchNetworking {
  const mode = networkModeOf(app.networks);
  const networks = app.networks.filter((n) => n.mode === 'container').map((n) => ({ ...(n.name === undefined ? {} : { name: n.name }), labels: n.labels }));
  if (mode === 'host') return { mode, networks, portMappings: [] };
  let hostIndex = 0;
  const portMappings = (app.container?.portMappings ?? []).flatMap((m): LaunchPortMapping[] => {
    if (m.hostPort === undefined) return [];
    const hostPort = hostPorts[hostIndex++];
    if (hostPort === undefined) return [];
    return [{ hostPort, containerPort: m.containerPort > 0 ? m.containerPort : hostPort, ...(m.protocol === '' ? {} : { protocol: m.protocol }) }];
  });
  return { mode, networks, portMappings };
}

/**
 * A pod instance's networking: its container networks, and under container networking every
 * container's endpoints that have a host port (host port → container port, one mapping per
 * transport protocol: `udp` stays, anything else is `tcp`).
 */
function podNetworking(pod: PodSpec, hostPortsOf: (name: string) => readonly number[] | undefined): LaunchNetworking {
  const networks = pod.networks.filter((n) => n.mode !== 'host').map((n) => ({ ...(n.name === undefined ? {} : { name: n.name }), labels: n.labels }));
  const portMappings: LaunchPortMapping[] = [];
  for (const container of pod.containers) {
    const hostPorts = hostPortsOf(container.name);
    let hostIndex = 0;
    for (const e of container.endpoints) {
      if (e.hostPort === undefined) continue;
      const hostPort = hostPorts?.[hostIndex++];
      if (hostPort === undefined) continue;
      const containerPort = e.containerPort !== undefined && e.containerPort > 0 ? e.containerPort : hostPort;
      for (const protocol of transportProtocols(e.protocol)) portMappings.push({ hostPort, containerPort, protocol });
    }
  }
  return { mode: pod.networkMode, networks, portMappings };
}

/** Endpoint protocols as transport protocols: `udp` stays, anything else (`tcp`, `http`) is tcp; no duplicates. */
function transportProtocols(protocols: readonly string[]): string[] {
  const out = new Set(protocols.map((p) => (p.toLowerCase() === 'udp' ? 'udp' : 'tcp')));
  return out.size > 0 ? [...out] : ['tcp'];
}

/**
 * An app task's ports for discovery: under host networking the port definitions with the task's
 * host ports; otherwise the port mappings, with the host port when the mapping has one and the
 * container port otherwise (ports of 0 are left out).
 */
function appPorts(app: AppSpec, hostPorts: readonly number[]): LaunchPort[] {
  if (networkModeOf(app.networks) === 'host') {
    return app.portDefinitions.flatMap((d, i) => {
      const number = hostPorts[i];
      return number === undefined ? [] : [launchPort(number, d.name, protocolsOf(d.protocol), d.labels)];
    });
  }
  let hostIndex = 0;
  return (app.container?.portMappings ?? []).flatMap((m) => {
    const number = m.hostPort !== undefined ? hostPorts[hostIndex++] : m.containerPort;
    return number === undefined || number === 0 ? [] : [launchPort(number, m.name, protocolsOf(m.protocol), m.labels ?? {})];
  });
}

/** A pod container task's ports for discovery: its endpoints, the same way. */
function podPorts(container: PodContainer, hostPorts: readonly number[]): LaunchPort[] {
  let hostIndex = 0;
  return container.endpoints.flatMap((e) => {
    const number = e.hostPort !== undefined ? hostPorts[hostIndex++] : e.containerPort;
    const protocols = e.protocol.length > 0 ? e.protocol.map((p) => p.toLowerCase()) : ['tcp'];
    return number === undefined || number === 0 ? [] : [launchPort(number, e.name, protocols, e.labels)];
  });
}

function launchPort(number: number, name: string | undefined, protocols: readonly string[], labels: Readonly<Record<string, string>>): LaunchPort {
  return { number, ...(name === undefined || name === '' ? {} : { name }), protocols, labels };
}

/** `"udp,tcp"` → `['udp', 'tcp']`; empty → `['tcp']` (Marathon's default protocol). */
function protocolsOf(text: string): readonly string[] {
  let list = protocolLists.get(text);
  if (list === undefined) {
    const parsed = text.split(',').map((p) => p.trim().toLowerCase()).filter((p) => p !== '');
    list = parsed.length > 0 ? parsed : ['tcp'];
    if (protocolLists.size < PROTOCOL_LISTS_MAX) protocolLists.set(text, list);
  }
  return list;
}

/**
 * Parsed protocol lists by their text: every launch of a port parsed `"tcp"` again. Launches share
 * the lists (read-only, as the whole TaskLaunch is). Bounded: the texts come from run specs.
 */
const protocolLists = new Map<string, readonly string[]>();
const PROTOCOL_LISTS_MAX = 1024;
