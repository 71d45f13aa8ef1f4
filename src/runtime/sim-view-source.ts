import type { SimAgentJson, SimFaultJson, SimPoolJson, SimViewJson, SimWorkloadJson } from '../api/ui/sim-view';
import { formatAttributeValue, isoTime } from '../scheduler/index';
import type { OfferedPool } from '../scheduler/model/offer';
import { countPorts } from '../master/port-ranges';
import type { RunResult } from '../../sim/runner/run-result';
import type { RunSession } from '../../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import type { Action, Scenario } from '../../sim/scenario/scenario';

/**
 * Builds `GET /pacer/v1/sim`'s answer ({@link SimViewJson}) from a paced run: its virtual clock,
 * the simulated cluster's agents with their pools (capacity and what live tasks use), and the
 * workload's fault steps. `result()` is the workload's verdict once its duration has passed.
 */
export function simViewSource(
  session: RunSession, scenario: Scenario, speed: number, result: () => RunResult | undefined,
): () => SimViewJson {
  return () => {
    const elapsedMs = session.nowMs() - VIRTUAL_EPOCH_MS;
    return {
      workload: workloadJson(scenario, speed, result(), session.violations()),
      virtualTime: { elapsedMs, now: isoTime(session.nowMs()) },
      agents: agentsJson(session),
      faults: faultsJson(scenario, elapsedMs),
    };
  };
}

function workloadJson(scenario: Scenario, speed: number, result: RunResult | undefined, violations: readonly string[]): SimWorkloadJson {
  const verdict = result === undefined ? 'running' : result.passed ? 'passed' : 'failed';
  return {
    name: scenario.name,
    ...(scenario.description !== undefined ? { description: scenario.description } : {}),
    seed: result?.seed ?? scenario.seed, durationMs: scenario.durationMs, speed, verdict, violations: [...violations],
  };
}

function agentsJson(session: RunSession): SimAgentJson[] {
  const { cluster } = session;
  const tasksPerAgent = new Map<string, number>();
  for (const task of cluster.liveTasks()) tasksPerAgent.set(task.agentId, (tasksPerAgent.get(task.agentId) ?? 0) + 1);
  return cluster.agentInfos().map((info): SimAgentJson => {
    const status = cluster.agentStatus(info.agentId);
    const used = cluster.agentUsage(info.agentId);
    return {
      agentId: info.agentId, hostname: info.hostname,
      ...(info.region !== undefined ? { region: info.region } : {}),
      ...(info.zone !== undefined ? { zone: info.zone } : {}),
      attributes: Object.fromEntries(info.attributes.map((a) => [a.name, formatAttributeValue(a)])),
      phase: status?.phase ?? 'removed', dead: status?.dead ?? false,
      tasks: tasksPerAgent.get(info.agentId) ?? 0,
      pools: poolsJson(cluster.agentCapacity(info.agentId), used),
    };
  });
}

/**
 * Each pool of an agent's capacity with its usage: the used pool of the same role and reservation
 * id (a resident instance's reservation is a pool of its own, beside its role's static one).
 */
export function poolsJson(capacity: readonly OfferedPool[], used: readonly OfferedPool[]): SimPoolJson[] {
  return capacity.map((cap) => poolJson(cap, used.find((u) => u.reservedFor === cap.reservedFor && u.reservationId === cap.reservationId)));
}

function poolJson(cap: OfferedPool, used: OfferedPool | undefined): SimPoolJson {
  return {
    role: cap.reservedFor ?? '*',
    ...(cap.reservationId !== undefined ? { reservationId: cap.reservationId } : {}),
    cpus: { used: (used?.cpusMilli ?? 0) / 1000, total: cap.cpusMilli / 1000 },
    mem: { used: (used?.memMilli ?? 0) / 1000, total: cap.memMilli / 1000 },
    disk: { used: (used?.diskMilli ?? 0) / 1000, total: cap.diskMilli / 1000 },
    gpus: { used: used?.gpus ?? 0, total: cap.gpus },
    ports: { used: countPorts(used?.ports ?? []), total: countPorts(cap.ports) },
  };
}

function faultsJson(scenario: Scenario, elapsedMs: number): SimFaultJson[] {
  const out: SimFaultJson[] = [];
  for (const step of scenario.timeline) {
    const fault = faultOf(step.action);
    if (fault !== undefined) out.push({ atMs: step.atMs, ...fault, done: step.atMs <= elapsedMs });
  }
  return out;
}

/** The kind and agents of a fault step; undefined for every other action. */
function faultOf(action: Action): Pick<SimFaultJson, 'kind' | 'agentIds'> | undefined {
  switch (action.type) {
    case 'partition':
    case 'heal':
    case 'killAgent':
      return { kind: action.type, agentIds: [action.agentId] };
    case 'addAgents':
      return { kind: action.type, agentIds: action.agents.map((a) => a.agentId) };
    default:
      return undefined;
  }
}
