import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalCluster, type LocalClusterOptions } from '../../../src/cluster/local/local-cluster';
import { sandboxOf } from '../../../src/cluster/local/sandbox-of';
import type { ClusterInput, TaskStatus } from '../../../src/scheduler/model/inputs';
import type { LaunchOperation, ResolvedAgentCheck, TaskLaunch } from '../../../src/scheduler/model/launch';
import type { Offer, OfferedPool } from '../../../src/scheduler/model/offer';
import { addResources, type ScalarResources } from '../../../src/scheduler/model/resources';
import type { AppSpec, PodSpec } from '../../../src/scheduler/model/run-spec';
import type { TaskState } from '../../../src/scheduler/model/task-state';
import { PATIENCE_MS, waitFor as waitUntilProbe } from '../../harness/wait';

/** The tap test object, as far as the fixture needs it. */
interface Teardown {
  teardown(fn: () => unknown): void;
}

export { sleep } from '../../harness/wait';

/** Poll `probe` until it returns something other than undefined/false; reject after `timeoutMs` (test/harness/wait.ts). */
export function waitFor<T>(probe: () => T | undefined | false, timeoutMs = PATIENCE_MS, what = 'condition'): Promise<T> {
  return waitUntilProbe(probe, what, timeoutMs);
}

/** A local cluster on a fresh temporary sandbox root, recording every input it posts. */
export class LocalFixture {
  readonly inputs: ClusterInput[] = [];
  cluster: LocalCluster;
  /** Acknowledge every update carrying a uuid, as the core does. */
  autoAck = true;

  constructor(readonly dir: string, readonly options: LocalClusterOptions) {
    this.cluster = this.newCluster();
  }

  /** A second driver on the same options (and state file), as after a pacer restart. */
  newCluster(): LocalCluster {
    const cluster: LocalCluster = new LocalCluster(this.options, (input) => {
      this.inputs.push(input);
      if (this.autoAck && input.type === 'status' && input.status.uuid !== undefined && input.status.agentId !== undefined) {
        cluster.acknowledge(input.status.agentId, input.status.taskId, input.status.uuid);
      }
    });
    return cluster;
  }

  /** Every status posted for `taskId`, in order. */
  statuses(taskId: string): TaskStatus[] {
    return this.inputs.flatMap((i) => (i.type === 'status' && i.status.taskId === taskId ? [i.status] : []));
  }

  /** States posted for `taskId`, in order. */
  states(taskId: string): TaskState[] {
    return this.statuses(taskId).map((s) => s.state);
  }

  /** Wait for a status of `taskId` in `state` (and matching `extra`, when given). */
  waitStatus(taskId: string, state: TaskState, timeoutMs = PATIENCE_MS, extra: (s: TaskStatus) => boolean = () => true): Promise<TaskStatus> {
    return waitFor(() => this.statuses(taskId).find((s) => s.state === state && extra(s)), timeoutMs, `${state} of ${taskId}`);
  }

  /** Offers posted so far, in order. */
  offers(): Offer[] {
    return this.inputs.flatMap((i) => (i.type === 'offers' ? i.offers : []));
  }

  /** Wait for an offer posted after `after` offers were seen (for `agentId` when given). */
  nextOffer(after = this.offers().length, agentId?: string, timeoutMs = PATIENCE_MS): Promise<Offer> {
    return waitFor(() => this.offers().slice(after).find((o) => agentId === undefined || o.agent.agentId === agentId), timeoutMs, 'an offer');
  }

  /** Start the cluster and return its first offer. */
  async startAndOffer(): Promise<Offer> {
    const seen = this.offers().length;
    this.cluster.start();
    return this.nextOffer(seen);
  }

  /** A file of a task's sandbox, once it exists and is not empty. */
  async sandboxFile(taskId: string, name: string, timeoutMs = PATIENCE_MS): Promise<string> {
    const sandbox = sandboxOf(this.options.sandboxRoot, taskId);
    return waitFor(() => readOrUndefined(join(sandbox, name)), timeoutMs, `${name} of ${taskId}`);
  }
}

function readOrUndefined(path: string): string | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

/** One small agent (ports 23000–23099, below the ephemeral range so listen(0) elsewhere never takes them), fast offer rounds and exit polling, sandboxes under `dir`. */
export function fixtureOptions(dir: string): LocalClusterOptions {
  return {
    agents: [{ agentId: 'agent-1', cpus: 4, memMib: 4096, diskMib: 10_000, ports: [23000, 23099], attributes: { rack: 'r1' }, zone: 'z1' }],
    sandboxRoot: join(dir, 'sandboxes'),
    offerIntervalMs: 50,
    exitPollMs: 50,
  };
}

/** A fixture on a new temporary directory (or `dir`), torn down (everything killed, removed) after the test. */
export function makeFixture(t: Teardown, options: Partial<LocalClusterOptions> = {}, dir = mkdtempSync(join(tmpdir(), 'pacer-local-'))): LocalFixture {
  const fixture = new LocalFixture(dir, { ...fixtureOptions(dir), ...options });
  t.teardown(async () => {
    await fixture.cluster.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });
  return fixture;
}

let taskSeq = 0;

/** Take `count` ports from an offered pool, lowest first. */
function takePorts(pool: OfferedPool, count: number): number[] {
  const out: number[] = [];
  for (const [b, e] of pool.ports) for (let p = b; p <= e && out.length < count; p++) out.push(p);
  if (out.length < count) throw new Error('not enough ports in the offer');
  return out;
}

function allocation(r: ScalarResources, ports: readonly number[]): OfferedPool[] {
  return [{ ...r, ports: ports.map((p) => [p, p] as const) }];
}

/** The LAUNCH of one app task on `offer`, with host ports taken from the offer and its agent-run check resolved. */
export function appLaunch(offer: Offer, spec: AppSpec, taskId = `app.instance-${++taskSeq}._app.1`): { op: LaunchOperation; task: TaskLaunch } {
  const hostPorts = takePorts(offer.pools[0], spec.hostPorts.length);
  const check = spec.healthChecks[0];
  const healthCheck: ResolvedAgentCheck | undefined = check === undefined
    ? undefined
    : { check, ...(check.protocol === 'COMMAND' ? {} : { port: check.port ?? hostPorts[check.portIndex ?? 0] }) };
  const task: TaskLaunch = {
    taskId,
    instanceId: taskId.replace(/\._app\.\d+$/, ''),
    runSpecId: spec.id,
    runSpecVersion: spec.version,
    agentId: offer.agent.agentId,
    hostname: offer.agent.hostname,
    role: spec.role,
    resources: spec.resources,
    hostPorts,
    ...(healthCheck === undefined ? {} : { healthCheck }),
    killGracePeriodMs: spec.killGracePeriodMs,
    spec,
  };
  return { op: { kind: 'launch', task, allocation: allocation(spec.resources, hostPorts) }, task };
}

/** The LAUNCH_GROUP of one pod instance on `offer`: one task per container, endpoint host ports from the offer. */
export function podLaunch(offer: Offer, spec: PodSpec): { op: LaunchOperation; tasks: TaskLaunch[] } {
  const instanceId = `pod.instance-${++taskSeq}`;
  const needed = spec.containers.reduce((n, c) => n + c.endpoints.filter((e) => e.hostPort !== undefined).length, 0);
  const ports = takePorts(offer.pools[0], needed);
  let next = 0;
  let total = spec.executorResources;
  const tasks = spec.containers.map((c): TaskLaunch => {
    const hostPorts = c.endpoints.filter((e) => e.hostPort !== undefined).map(() => ports[next++]);
    total = addResources(total, c.resources);
    const endpointIndex = c.endpoints.filter((e) => e.hostPort !== undefined).findIndex((e) => e.name === c.healthCheck?.endpoint);
    const healthCheck = c.healthCheck === undefined ? undefined : { check: c.healthCheck, ...(endpointIndex >= 0 ? { port: hostPorts[endpointIndex] } : {}) };
    return {
      taskId: `${instanceId}.${c.name}`,
      instanceId,
      runSpecId: spec.id,
      runSpecVersion: spec.version,
      containerName: c.name,
      agentId: offer.agent.agentId,
      hostname: offer.agent.hostname,
      role: spec.role,
      resources: c.resources,
      hostPorts,
      ...(healthCheck === undefined ? {} : { healthCheck }),
      killGracePeriodMs: c.killGracePeriodMs ?? 3000,
      spec,
    };
  });
  const op: LaunchOperation = {
    kind: 'launchGroup', executorId: `instance-${instanceId}`, executorResources: spec.executorResources, tasks, allocation: allocation(total, ports),
  };
  return { op, tasks };
}
