import type { MasterAgentSpec, MasterOperation, MasterTaskLaunch } from '../../src/master/master-types';
import type { OfferedPool } from '../../src/scheduler/model/offer';
import type { PortRange, ScalarResources } from '../../src/scheduler/model/resources';

/*
 * Builders for the master model's tests (src/master): agents, tasks, LAUNCH and LAUNCH_GROUP
 * operations whose allocation is exactly what their tasks need. Amounts in the model's units
 * (milli-units), made from cpus and MiB.
 */

/** An agent with one unreserved pool (and optional reserved ones). */
export function agentSpec(agentId: string, o: { cpus?: number; memMib?: number; ports?: PortRange[]; reserved?: OfferedPool[] } = {}): MasterAgentSpec {
  return {
    info: { agentId, hostname: `${agentId}.example`, attributes: [] },
    pools: [{ cpusMilli: (o.cpus ?? 4) * 1000, memMilli: (o.memMib ?? 1024) * 1000, diskMilli: 1_024_000, gpus: 0, ports: o.ports ?? [[1000, 1009]] }, ...(o.reserved ?? [])],
  };
}

/** Scalar resources of `cpus` and `memMib` (no disk, no gpus). */
export function masterScalars(cpus: number, memMib: number): ScalarResources {
  return { cpusMilli: Math.round(cpus * 1000), memMilli: Math.round(memMib * 1000), diskMilli: 0, gpus: 0 };
}

/** A task of `role` needing `resources` and host ports. */
export function masterTask(taskId: string, agentId: string, resources: ScalarResources, hostPorts: number[] = [], role = '*'): MasterTaskLaunch {
  return { taskId, agentId, role, resources, hostPorts };
}

/** LAUNCH of one task whose allocation is exactly its resources and ports (from `reservedFor`'s pool). */
export function launchOf(t: MasterTaskLaunch, reservedFor?: string): MasterOperation {
  const ports: PortRange[] = t.hostPorts.map((p) => [p, p]);
  return { kind: 'launch', task: t, allocation: [{ ...(reservedFor === undefined ? {} : { reservedFor }), ...t.resources, ports }] };
}

/** LAUNCH_GROUP of tasks on executor `executorId` (Marathon's pod default: 0.1 cpus, 32 MiB, 10 MiB disk of its own), from the unreserved pool. */
export function groupOf(executorId: string, tasks: MasterTaskLaunch[]): Extract<MasterOperation, { kind: 'launchGroup' }> {
  const executorResources = { ...masterScalars(0.1, 32), diskMilli: 10_000 };
  const sum = { ...executorResources };
  for (const t of tasks) {
    sum.cpusMilli += t.resources.cpusMilli;
    sum.memMilli += t.resources.memMilli;
    sum.diskMilli += t.resources.diskMilli;
  }
  return { kind: 'launchGroup', executorId, executorResources, tasks, allocation: [{ ...sum, ports: tasks.flatMap((t) => t.hostPorts.map((p): PortRange => [p, p])) }] };
}
