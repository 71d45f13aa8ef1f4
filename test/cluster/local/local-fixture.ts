import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalCluster, type LocalClusterOptions } from '../../../src/cluster/local/local-cluster';
import { sandboxOf } from '../../../src/cluster/local/sandbox-of';
import type { ClusterInput, TaskStatus } from '../../../src/scheduler/model/inputs';
import type { LaunchOperation, TaskLaunch } from '../../../src/scheduler/model/launch';
import type { Offer, OfferedPool } from '../../../src/scheduler/model/offer';
import { addResources, type ScalarResources } from '../../../src/scheduler/model/resources';
import type { AppSpec } from '../../../src/scheduler/model/app';
import type { PodSpec } from '../../../src/scheduler/model/pod';
import type { TaskState } from '../../../src/scheduler/model/task-state';
import { appLaunchOn, podLaunchOn } from '../../builders/launch-builders';
import { PATIENCE_MS, waitFor as waitUntilProbe } from '../../harness/wait';
import { testAgentPorts } from '../../harness/agent-ports';

/** The tap test object, as far as the fixture needs it. */
interface Teardown {
  teardown(fn: () => unknown): void;
}

export { sleep } from '../../harness/wait';

/** Poll `probe` until it returns something other than undefined/false; reject after `timeoutMs` (test/harness/wait.ts). */
export function waitFor<T>(probe: () => T | undefined | false, timeoutMs = PATIENCE_MS, what = 'condition'): Promise<T> {
  return waitUntilProbe(probe, what, timeoutMs);
}

/**
 * The argv of process `pid` (argv[0] first) once its exec has taken effect: a spawn's pid comes
 * back as the exec begins, and /proc shows the new program's argv a moment later.
 */
export function execedArgv(pid: number): Promise<string[]> {
  return waitFor(() => {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
    return argv.length > 0 && argv;
  }, PATIENCE_MS, `the argv of process ${pid} in /proc`);
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

  /** Start the cluster and launch one task of `spec` on its first offer (accepted without a refuse filter). */
  async startAndLaunch(spec: AppSpec): Promise<TaskLaunch> {
    const offer = await this.startAndOffer();
    const { op, task } = appLaunch(offer, spec);
    this.cluster.accept(offer.offerId, [op], 0);
    return task;
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

/**
 * One small agent (on this test process's own block of ports, test/harness/agent-ports.ts: outside
 * the ephemeral range, so listen(0) elsewhere never takes them, and apart from other test files'),
 * fast offer rounds and exit polling, sandboxes under `dir`.
 */
export function fixtureOptions(dir: string): LocalClusterOptions {
  return {
    agents: [{ agentId: 'agent-1', cpus: 4, memMib: 4096, diskMib: 10_000, ports: testAgentPorts(), attributes: { rack: 'r1' }, zone: 'z1' }],
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

/** The core's LAUNCH of one app task on `offer` (launcher/task-launch.ts), with host ports taken from the offer. */
export function appLaunch(offer: Offer, spec: AppSpec, taskId = `app.instance-${++taskSeq}._app.1`): { op: LaunchOperation; task: TaskLaunch } {
  const hostPorts = takePorts(offer.pools[0], spec.hostPorts.length);
  const op = appLaunchOn(offer, spec, {
    taskId, instanceId: taskId.replace(/\._app\.\d+$/, ''), hostPorts, allocation: allocation(spec.resources, hostPorts),
  });
  return { op, task: op.task };
}

/** The core's LAUNCH_GROUP of one pod instance on `offer`: one task per container, endpoint host ports from the offer. */
export function podLaunch(offer: Offer, spec: PodSpec): { op: LaunchOperation; tasks: TaskLaunch[] } {
  const instanceId = `pod.instance-${++taskSeq}`;
  const needed = spec.containers.reduce((n, c) => n + c.endpoints.filter((e) => e.hostPort !== undefined).length, 0);
  const ports = takePorts(offer.pools[0], needed);
  const portsOf = new Map<string, number[]>();
  let next = 0;
  let total = spec.executorResources;
  for (const c of spec.containers) {
    portsOf.set(c.name, c.endpoints.filter((e) => e.hostPort !== undefined).map(() => ports[next++]));
    total = addResources(total, c.resources);
  }
  const op = podLaunchOn(offer, spec, {
    instanceId, executorId: `instance-${instanceId}`, allocation: allocation(total, ports),
    taskIdOf: (name) => `${instanceId}.${name}`, hostPortsOf: (name) => portsOf.get(name) ?? [],
  });
  return { op, tasks: [...op.tasks] };
}
