import type { OfferedPool } from '../scheduler/model/offer';
import type { PortRange, ScalarResources } from '../scheduler/model/resources';
import type { PersistentVolume, ReservationOperation } from '../scheduler/model/reservation';
import { poolKey } from './agent-ledger';
import { executorRefusal, type ExecutorVerdict } from './executor-book';
import { operationExecutorId, operationTasks, type MasterOperation, type MasterTaskLaunch, type Refusal } from './master-types';
import { containsPort, containsRanges, subtractRanges, unionRanges } from './port-ranges';

/** What is left of one offered pool while the operations of one ACCEPT are applied in order. */
interface WorkingPool {
  cpusMilli: number;
  memMilli: number;
  diskMilli: number;
  gpus: number;
  ports: readonly PortRange[];
  /** Persistent volumes of a dynamic reservation. */
  volumes?: readonly PersistentVolume[];
}

/**
 * The ACCEPT check of the master model: the offered resources of one ACCEPT, consumed operation
 * by operation (Mesos applies the operations of an ACCEPT in order against the pooled resources
 * of the offer, mesos-v1-scheduler-api.md §2.3). {@link take} validates one launch operation and,
 * only when it is valid, deducts its allocation; otherwise it says how the master refuses it:
 * TASK_ERROR with REASON_TASK_INVALID (REASON_TASK_GROUP_INVALID for a group) for an operation
 * that does not fit the offer or whose default executor has less than Mesos's minimum
 * ({@link executorShortfall}), or what the agent answers when its executor id is taken
 * ({@link executorRefusal}).
 */
export class AcceptCheck {
  private readonly pools = new Map<string, WorkingPool>();
  private readonly taskIds = new Set<string>();

  constructor(
    offered: readonly OfferedPool[],
    private readonly agentId: string,
    /** Whether a task id is already in use on the cluster (Mesos refuses duplicate task ids). */
    private readonly taskIdInUse: (taskId: string) => boolean,
    /** What the agent does with an operation naming this executor id (executor-book.ts). */
    private readonly executorVerdict: (executorId: string) => ExecutorVerdict = () => 'new',
  ) {
    for (const p of offered) {
      this.pools.set(poolKey(p.reservedFor, p.reservationId), {
        cpusMilli: p.cpusMilli,
        memMilli: p.memMilli,
        diskMilli: p.diskMilli,
        gpus: p.gpus,
        ports: p.ports,
        ...(p.reservationId === undefined ? {} : { volumes: p.volumes ?? [] }),
      });
    }
  }

  /**
   * Validate a reservation operation against what is left of the offer, as the Mesos master
   * validates RESERVE / CREATE / DESTROY / UNRESERVE (apache/mesos src/master/validation.cpp,
   * `operation::validate`): RESERVE takes unreserved offered resources for a role other than `*`
   * (the reservation then counts as offered, so a later LAUNCH of the same ACCEPT may use it);
   * CREATE needs the labelled reservation in the offer with disk for the volumes and unused
   * persistence ids; DESTROY needs the volumes in the offer (a volume in use is not offered);
   * UNRESERVE needs the whole reservation offered (`whole`, from the agent's books) and no volume
   * left on it. Returns the problem, or undefined after applying the operation to the working offer.
   */
  takeReservation(op: ReservationOperation, whole: PoolAmountsLike | undefined): string | undefined {
    if (op.agentId !== this.agentId) return `${op.kind} targets agent ${op.agentId}, offer is on ${this.agentId}`;
    if (op.role === '*' || op.role === '') return `${op.kind} for role ${JSON.stringify(op.role)}: only a named role can hold a reservation`;
    const key = poolKey(op.role, op.reservationId);
    const pool = this.pools.get(key);
    switch (op.kind) {
      case 'reserve': {
        const unreserved = this.pools.get(poolKey(undefined));
        if (op.allocation.some((a) => a.reservedFor !== undefined)) return 'reserve takes unreserved resources only';
        const total = sumPools(op.allocation);
        if (unreserved === undefined) return 'reserve: no unreserved resources offered';
        const short = shortfall(unreserved, total);
        if (short !== undefined) return `reserve: ${short} in the unreserved offer`;
        this.pools.set(poolKey(undefined), minusPool(unreserved, total));
        this.pools.set(key, pool === undefined ? { ...total, volumes: [] } : { ...plusPool(pool, total), volumes: pool.volumes ?? [] });
        return undefined;
      }
      case 'create': {
        if (pool === undefined) return `create: reservation ${op.reservationId} of role ${op.role} is not offered`;
        const existing = pool.volumes ?? [];
        const ids = new Set(existing.map((v) => v.persistenceId));
        let disk = existing.reduce((n, v) => n + v.diskMilli, 0);
        for (const v of op.volumes) {
          if (ids.has(v.persistenceId)) return `create: persistence id ${v.persistenceId} already exists`;
          ids.add(v.persistenceId);
          disk += v.diskMilli;
        }
        if (disk > pool.diskMilli) return `create: volumes need diskMilli ${disk}, the reservation has ${pool.diskMilli}`;
        pool.volumes = [...existing, ...op.volumes];
        return undefined;
      }
      case 'destroy': {
        if (pool === undefined) return `destroy: reservation ${op.reservationId} of role ${op.role} is not offered (its volumes may be in use)`;
        const existing = pool.volumes ?? [];
        const gone = new Set(op.volumes.map((v) => v.persistenceId));
        const missing = op.volumes.find((v) => !existing.some((e) => e.persistenceId === v.persistenceId));
        if (missing !== undefined) return `destroy: volume ${missing.persistenceId} is not offered`;
        pool.volumes = existing.filter((v) => !gone.has(v.persistenceId));
        return undefined;
      }
      case 'unreserve': {
        if (pool === undefined || whole === undefined) return `unreserve: reservation ${op.reservationId} of role ${op.role} is not offered`;
        if ((pool.volumes ?? []).length > 0) return `unreserve: reservation ${op.reservationId} still has persistent volumes`;
        if (shortfall(pool, whole) !== undefined) return `unreserve: reservation ${op.reservationId} is in use`;
        this.pools.delete(key);
        const unreserved = this.pools.get(poolKey(undefined));
        this.pools.set(poolKey(undefined), unreserved === undefined ? { ...whole } : plusPool(unreserved, whole));
        return undefined;
      }
    }
  }

  /**
   * Validate `op` against what is left of the offer. Returns how the master refuses it (the first
   * problem), or undefined after deducting the allocation. A refused operation consumes nothing.
   */
  take(op: MasterOperation): Refusal | undefined {
    const problem = this.problem(op);
    if (problem === undefined) return undefined;
    if (typeof problem !== 'string') return problem;
    return { state: 'TASK_ERROR', reason: op.kind === 'launch' ? 'REASON_TASK_INVALID' : 'REASON_TASK_GROUP_INVALID', message: problem };
  }

  private problem(op: MasterOperation): string | Refusal | undefined {
    const tasks = operationTasks(op);
    if (tasks.length === 0) return 'launch without tasks';
    for (const t of tasks) {
      if (t.agentId !== this.agentId) return `task ${t.taskId} targets agent ${t.agentId}, offer is on ${this.agentId}`;
      if (this.taskIds.has(t.taskId) || this.taskIdInUse(t.taskId)) return `duplicate task id ${t.taskId}`;
      if (usesNothing(t)) return `task ${t.taskId} uses no resources`;
    }
    const executorId = operationExecutorId(op);
    if (op.kind === 'launchGroup') {
      const short = executorShortfall(op.executorResources);
      if (short !== undefined) return `executor ${executorId} ${short}`;
    }
    const taken = executorRefusal(this.executorVerdict(executorId), executorId, op.kind === 'launchGroup');
    if (taken !== undefined) return taken;
    const needed: ScalarResources = { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0 };
    for (const t of tasks) add(needed, t.resources);
    if (op.kind === 'launchGroup') add(needed, op.executorResources);

    const given: ScalarResources = { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0 };
    let givenPorts: readonly PortRange[] = [];
    const after = new Map<string, WorkingPool>();
    for (const a of op.allocation) {
      const key = poolKey(a.reservedFor, a.reservationId);
      const left = after.get(key) ?? this.pools.get(key);
      if (left === undefined) return `allocation uses pool ${key}, which was not offered`;
      if (a.reservedFor !== undefined && tasks.some((t) => t.role !== a.reservedFor)) {
        return `allocation uses resources reserved for ${a.reservedFor} for a task of another role`;
      }
      for (const f of SCALARS) {
        if (a[f] < 0) return `negative ${f} in allocation`;
        if (a[f] > left[f]) return `${f} ${a[f]} exceeds the ${left[f]} left in pool ${key}`;
      }
      if (!containsRanges(left.ports, a.ports)) return `ports ${JSON.stringify(a.ports)} not offered in pool ${key}`;
      after.set(key, {
        cpusMilli: left.cpusMilli - a.cpusMilli,
        memMilli: left.memMilli - a.memMilli,
        diskMilli: left.diskMilli - a.diskMilli,
        gpus: left.gpus - a.gpus,
        ports: subtractRanges(left.ports, a.ports),
        ...(left.volumes === undefined ? {} : { volumes: left.volumes }),
      });
      add(given, a);
      givenPorts = unionRanges(givenPorts, a.ports);
    }
    for (const f of SCALARS) {
      if (given[f] < needed[f]) return `allocation has ${f} ${given[f]}, the tasks need ${needed[f]}`;
    }
    for (const t of tasks) {
      for (const port of t.hostPorts) {
        if (port > 0 && !containsPort(givenPorts, port)) return `host port ${port} of ${t.taskId} is not in the allocation`;
      }
    }
    for (const [key, pool] of after) this.pools.set(key, pool);
    for (const t of tasks) this.taskIds.add(t.taskId);
    return undefined;
  }
}

const SCALARS = ['cpusMilli', 'memMilli', 'diskMilli', 'gpus'] as const;

/** Amounts of a pool (scalars and ports). */
export type PoolAmountsLike = Pick<OfferedPool, 'cpusMilli' | 'memMilli' | 'diskMilli' | 'gpus' | 'ports'>;

function sumPools(pools: readonly PoolAmountsLike[]): WorkingPool {
  const sum: WorkingPool = { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] };
  for (const p of pools) {
    add(sum, p);
    sum.ports = unionRanges(sum.ports, p.ports);
  }
  return sum;
}

/** What `need` lacks in `have` (scalars, ports), or undefined when it fits. */
export function shortfall(have: PoolAmountsLike, need: PoolAmountsLike): string | undefined {
  for (const f of SCALARS) if (need[f] > have[f] || need[f] < 0) return `${f} ${need[f]} exceeds the ${have[f]} left`;
  if (!containsRanges(have.ports, need.ports)) return `ports ${JSON.stringify(need.ports)} not offered`;
  return undefined;
}

function minusPool(a: WorkingPool, b: PoolAmountsLike): WorkingPool {
  return { ...a, cpusMilli: a.cpusMilli - b.cpusMilli, memMilli: a.memMilli - b.memMilli, diskMilli: a.diskMilli - b.diskMilli, gpus: a.gpus - b.gpus, ports: subtractRanges(a.ports, b.ports) };
}

function plusPool(a: WorkingPool, b: PoolAmountsLike): WorkingPool {
  return { ...a, cpusMilli: a.cpusMilli + b.cpusMilli, memMilli: a.memMilli + b.memMilli, diskMilli: a.diskMilli + b.diskMilli, gpus: a.gpus + b.gpus, ports: unionRanges(a.ports, b.ports) };
}

/** A task with no cpus, mem, disk, gpus or host port: Mesos refuses it (apache/mesos src/master/validation.cpp, task resources). */
function usesNothing(t: MasterTaskLaunch): boolean {
  return SCALARS.every((f) => t.resources[f] <= 0) && !t.hostPorts.some((p) => p > 0);
}

/** The least a task group's default executor may have (Mesos `MIN_CPUS`, `MIN_MEM`: 0.01 cpus, 32 MB). */
export const MIN_EXECUTOR_CPUS_MILLI = 10;
export const MIN_EXECUTOR_MEM_MILLI = 32_000;

/**
 * Why a default executor's own resources are refused, or undefined: it needs at least
 * {@link MIN_EXECUTOR_CPUS_MILLI} cpus, {@link MIN_EXECUTOR_MEM_MILLI} mem and some disk
 * (mesos-v1-scheduler-api.md §5.3; Marathon's pod default, 0.1 cpus, 32 MiB, 10 MiB, passes).
 */
export function executorShortfall(r: ScalarResources): string | undefined {
  if (r.cpusMilli < MIN_EXECUTOR_CPUS_MILLI) return `has cpusMilli ${r.cpusMilli}, less than the minimum ${MIN_EXECUTOR_CPUS_MILLI}`;
  if (r.memMilli < MIN_EXECUTOR_MEM_MILLI) return `has memMilli ${r.memMilli}, less than the minimum ${MIN_EXECUTOR_MEM_MILLI}`;
  if (r.diskMilli <= 0) return 'has no disk';
  return undefined;
}

function add(sum: ScalarResources, r: ScalarResources): void {
  sum.cpusMilli += r.cpusMilli;
  sum.memMilli += r.memMilli;
  sum.diskMilli += r.diskMilli;
  sum.gpus += r.gpus;
}
