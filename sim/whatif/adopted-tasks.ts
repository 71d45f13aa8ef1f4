import { gracePeriodMs } from '../../src/scheduler/index';
import { isUnreachableCondition } from '../../src/scheduler/model/condition';
import type { InstanceFields } from '../../src/scheduler/model/instance';
import type { OfferedPool } from '../../src/scheduler/model/offer';
import type { RunSpec } from '../../src/scheduler/model/run-spec';
import { isTerminalTaskState, type TaskState } from '../../src/scheduler/model/task-state';
import type { PortRange } from '../../src/scheduler/model/resources';
import type { AdoptedTasks } from '../cluster/sim-cluster';

/** Task states a fork adopts as still on their agent (the others have ended or are unknown). */
const ADOPTED_STATES: ReadonlySet<TaskState> = new Set<TaskState>(['TASK_STAGING', 'TASK_STARTING', 'TASK_RUNNING', 'TASK_KILLING']);

/**
 * The tasks of `inst` as a fork's simulated agent adopts them, or undefined when the instance has
 * nothing on an agent (not placed, ended, unreachable, or its tasks not reported yet). Its
 * allocation is the one recorded for resident instances, otherwise its tasks' resources and host
 * ports in one pool: the role's reserved pool when the agent has one (`hasPool`), else the
 * unreserved one — an approximation, since the live core keeps no allocation for other instances.
 */
export function adoptedTasksOf(inst: InstanceFields, spec: RunSpec | undefined, hasPool: (agentId: string, role: string) => boolean): AdoptedTasks | undefined {
  const agent = inst.agent;
  if (agent === undefined || isUnreachableCondition(inst.condition) || inst.tasks.length === 0) return undefined;
  const states = inst.tasks.map((t) => t.state);
  if (states.some((s) => s === undefined || isTerminalTaskState(s))) return undefined;
  const state = leastAdvanced(states as TaskState[]);
  if (!ADOPTED_STATES.has(state)) return undefined;
  const launches = inst.tasks.map((t) => ({
    taskId: t.taskId, instanceId: inst.instanceId, runSpecId: inst.runSpecId, agentId: agent.agentId, role: inst.role,
    resources: t.resources, hostPorts: t.hostPorts, healthCheck: undefined, killGracePeriodMs: gracePeriodMs(spec, t.containerName),
  }));
  return {
    agentId: agent.agentId, group: inst.kind === 'pod', launches,
    allocation: inst.allocation ?? [usedPool(inst, hasPool(agent.agentId, inst.role) ? inst.role : undefined)],
    state, ...(inst.healthy === undefined ? {} : { healthy: inst.healthy }),
  };
}

/** What the instance's tasks hold, in one pool. */
export function usedPool(inst: Pick<InstanceFields, 'tasks'>, reservedFor: string | undefined): OfferedPool {
  let cpusMilli = 0;
  let memMilli = 0;
  let diskMilli = 0;
  let gpus = 0;
  const ports: PortRange[] = [];
  for (const t of inst.tasks) {
    cpusMilli += t.resources.cpusMilli;
    memMilli += t.resources.memMilli;
    diskMilli += t.resources.diskMilli;
    gpus += t.resources.gpus;
    for (const p of t.hostPorts) ports.push([p, p]);
  }
  ports.sort((a, b) => a[0] - b[0]);
  return { ...(reservedFor === undefined || reservedFor === '*' ? {} : { reservedFor }), cpusMilli, memMilli, diskMilli, gpus, ports };
}

const ORDER: readonly TaskState[] = ['TASK_STAGING', 'TASK_STARTING', 'TASK_RUNNING', 'TASK_KILLING'];

/** The state of a pod's tasks taken together: the least advanced one (they move together). */
function leastAdvanced(states: readonly TaskState[]): TaskState {
  let best = states[0];
  for (const s of states) {
    const i = ORDER.indexOf(s);
    if (i >= 0 && (ORDER.indexOf(best) < 0 || i < ORDER.indexOf(best))) best = s;
  }
  return best;
}
