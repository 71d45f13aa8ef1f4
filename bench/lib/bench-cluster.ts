import type { AgentAttribute, AgentInfo } from '../../src/scheduler/model/agent';
import type { LaunchOperation, TaskLaunch } from '../../src/scheduler/model/launch';
import type { Offer, OfferedPool } from '../../src/scheduler/model/offer';
import type { ClusterDriver } from '../../src/scheduler/ports/cluster-driver';

/** Shape of the benchmark cluster: regions × zones, racks, mixed attributes, some reservations. */
export interface BenchClusterShape {
  readonly agents: number;
  readonly regions: number;
  readonly zonesPerRegion: number;
  readonly racks: number;
  readonly cpus: number;
  readonly memMib: number;
  readonly ports: readonly [number, number];
  /** Every n-th agent reserves part of its resources for role `prod`. */
  readonly reservedEvery: number;
}

interface BenchAgent {
  readonly info: AgentInfo;
  readonly pools: MutablePool[];
}

interface MutablePool {
  reservedFor?: string;
  cpusMilli: number;
  memMilli: number;
  diskMilli: number;
  gpus: number;
  ports: [number, number][];
}

/**
 * A minimal in-process cluster for benchmarks: it offers each agent's remaining resources and
 * books what accepts take (exactly the offer's allocation), like a Mesos master would, with no
 * task lifecycle. It implements the ClusterDriver port so the real core drives it.
 */
export class BenchCluster implements ClusterDriver {
  readonly agents: BenchAgent[] = [];
  private offerSeq = 0;
  private readonly outstanding = new Map<string, BenchAgent>();
  accepted = 0;
  launchedTasks = 0;
  declined = 0;
  /** Launches whose resolved task was read and checked (one in {@link TASK_CHECK_EVERY}). */
  checkedTasks = 0;
  /** What was wrong with the checked tasks (the first few). */
  readonly taskProblems: string[] = [];

  constructor(shape: BenchClusterShape) {
    for (let i = 0; i < shape.agents; i++) this.agents.push(makeAgent(i, shape));
  }

  /** One offer per agent that still has cpus left, in agent order. */
  offerAll(): Offer[] {
    const offers: Offer[] = [];
    for (const agent of this.agents) {
      if (!agent.pools.some((p) => p.cpusMilli > 0)) continue;
      const offerId = `o-${++this.offerSeq}`;
      this.outstanding.set(offerId, agent);
      offers.push({ offerId, agent: agent.info, pools: agent.pools.map(snapshot) });
    }
    return offers;
  }

  accept(offerId: string, operations: readonly LaunchOperation[]): void {
    const agent = this.outstanding.get(offerId);
    if (agent === undefined) throw new Error(`bench: accept of unknown offer ${offerId}`);
    this.outstanding.delete(offerId);
    this.accepted++;
    for (const op of operations) {
      this.launchedTasks += op.kind === 'launch' ? 1 : op.tasks.length;
      if (op.kind === 'launch' && this.launchedTasks % TASK_CHECK_EVERY === 0) this.checkTask(agent, op.task, op.allocation);
      for (const a of op.allocation) book(agent, a);
    }
  }

  decline(offerIds: readonly string[]): void {
    for (const id of offerIds) this.outstanding.delete(id);
    this.declined += offerIds.length;
  }

  /**
   * A real driver reads every launch's resolved task (environment, ports, networking); this cluster
   * books the allocation only, so the core's launcher builds no task it is not asked for. To show
   * that what a driver would read is right, one launch in {@link TASK_CHECK_EVERY} is read: its
   * agent, its host ports (taken from the offer: inside the allocation's port ranges) and the
   * environment naming them.
   */
  private checkTask(agent: BenchAgent, task: TaskLaunch, allocation: readonly OfferedPool[]): void {
    this.checkedTasks++;
    const wrong: string[] = [];
    if (task.agentId !== agent.info.agentId || task.hostname !== agent.info.hostname) wrong.push(`agent ${task.agentId}`);
    if (task.env.HOST !== agent.info.hostname) wrong.push(`HOST=${task.env.HOST}`);
    task.hostPorts.forEach((port, i) => {
      if (!allocation.some((a) => a.ports.some(([b, e]) => port >= b && port <= e))) wrong.push(`host port ${port} not allocated`);
      if (task.env[`PORT${i}`] !== String(port)) wrong.push(`PORT${i}=${task.env[`PORT${i}`]} for ${port}`);
    });
    if (task.env.MARATHON_APP_ID !== task.runSpecId) wrong.push(`MARATHON_APP_ID=${task.env.MARATHON_APP_ID}`);
    if (wrong.length > 0 && this.taskProblems.length < 5) this.taskProblems.push(`${task.taskId}: ${wrong.join(', ')}`);
  }

  kill(): void {}
  acknowledge(): void {}
  reconcile(): void {}
  revive(): void {}
  suppress(): void {}
}

/** One launch in this many has its resolved task read and checked ({@link BenchCluster.checkTask}). */
export const TASK_CHECK_EVERY = 97;

function makeAgent(i: number, shape: BenchClusterShape): BenchAgent {
  const region = i % shape.regions;
  const zone = Math.floor(i / shape.regions) % shape.zonesPerRegion;
  const rack = i % shape.racks;
  const attributes: AgentAttribute[] = [
    { name: 'rack', type: 'text', text: `rack-${rack}` },
    { name: 'generation', type: 'scalar', scalar: 1 + (i % 3) },
    { name: 'disks', type: 'set', set: i % 2 === 0 ? ['ssd'] : ['hdd', 'ssd'] },
    { name: 'kernel', type: 'text', text: i % 10 === 0 ? '4.19' : '5.10' },
  ];
  const info: AgentInfo = {
    agentId: `agent-${i}`, hostname: `host-${i}.bench`, region: `region-${region}`, zone: `region-${region}-zone-${zone}`, attributes,
  };
  const cpusMilli = shape.cpus * 1000;
  const memMilli = shape.memMib * 1000;
  const pools: MutablePool[] = [];
  if (shape.reservedEvery > 0 && i % shape.reservedEvery === 0) {
    pools.push({ reservedFor: 'prod', cpusMilli: cpusMilli / 2, memMilli: memMilli / 2, diskMilli: 0, gpus: 0, ports: [] });
    pools.push({ cpusMilli: cpusMilli / 2, memMilli: memMilli / 2, diskMilli: 0, gpus: 0, ports: [[shape.ports[0], shape.ports[1]]] });
  } else {
    pools.push({ cpusMilli, memMilli, diskMilli: 0, gpus: 0, ports: [[shape.ports[0], shape.ports[1]]] });
  }
  return { info, pools };
}

function snapshot(p: MutablePool): OfferedPool {
  return { reservedFor: p.reservedFor, cpusMilli: p.cpusMilli, memMilli: p.memMilli, diskMilli: p.diskMilli, gpus: p.gpus, ports: p.ports.map((r) => [r[0], r[1]] as const) };
}

function book(agent: BenchAgent, a: OfferedPool): void {
  const pool = agent.pools.find((p) => p.reservedFor === a.reservedFor);
  if (pool === undefined) throw new Error('bench: allocation from a pool the agent lacks');
  pool.cpusMilli -= a.cpusMilli;
  pool.memMilli -= a.memMilli;
  pool.diskMilli -= a.diskMilli;
  pool.gpus -= a.gpus;
  if (pool.cpusMilli < 0 || pool.memMilli < 0) throw new Error(`bench: ${agent.info.agentId} over-committed`);
  for (const [b, e] of a.ports) for (let p = b; p <= e; p++) removePort(pool, p);
}

function removePort(pool: MutablePool, port: number): void {
  for (let i = 0; i < pool.ports.length; i++) {
    const r = pool.ports[i];
    if (port < r[0] || port > r[1]) continue;
    if (r[0] === r[1]) pool.ports.splice(i, 1);
    else if (port === r[0]) r[0]++;
    else if (port === r[1]) r[1]--;
    else pool.ports.splice(i, 1, [r[0], port - 1], [port + 1, r[1]]);
    return;
  }
  throw new Error(`bench: port ${port} booked twice`);
}
