import { decodeTree, encodeTree } from '../store/sqlite/codec';
import type { Instance, InstanceFields, Task } from '../scheduler/model/instance';
import type { AgentInfo } from '../scheduler/model/agent';
import type { OfferedPool } from '../scheduler/model/offer';
import type { StoredState } from '../scheduler/ports/store';
import type { Scheduler } from '../scheduler/index';
import { isTerminalCondition, isUnreachableCondition } from '../scheduler/model/condition';
import { isTerminalTaskState } from '../scheduler/model/task-state';
import type { ForkAgent, ForkState } from '../../sim/whatif/fork-state';
import { addTasksUsage } from './add-usage';
import type { LastOffer } from './last-offers';
import { WhatIfRefused, type WhatIfLimits } from './what-if-limits';

/**
 * Takes a what-if fork of a live pacer (issue 18): a deep copy of what the core holds — the root
 * group, the run specs it runs, every instance, the running deployments — as a store would hold
 * it, and the agents built from the last offer seen per agent ({@link agentsOf}). Reads only: the
 * live core, its store and its cluster are not touched. A cluster beyond `limits` is refused
 * (422) before anything is copied.
 */
export function takeFork(scheduler: Scheduler, lastOffers: readonly LastOffer[], nowMs: number, limits: WhatIfLimits): ForkState {
  const specs = scheduler.runSpecs();
  const instances: Instance[] = [];
  for (const spec of specs) {
    instances.push(...scheduler.instances(spec.id));
    if (instances.length > limits.maxInstances) {
      throw new WhatIfRefused(`the cluster holds more than ${limits.maxInstances} instances: too large to fork for a what-if (docs/limits.md)`);
    }
  }
  if (lastOffers.length > limits.maxAgents) {
    throw new WhatIfRefused(`the cluster has ${lastOffers.length} agents, more than ${limits.maxAgents}: too large to fork for a what-if (docs/limits.md)`);
  }
  const root = scheduler.root();
  const stored: StoredState = {
    root, runSpecs: specs, versions: specs, rootVersions: [root],
    deployments: scheduler.deployments().map((d) => d.deployment), instances,
  };
  const copy = decodeTree(encodeTree(stored)) as StoredState;
  // The fork's own seed: the live core's (a simulated cluster's is its scenario's, 1 by default)
  // would draw the ids the live core drew, and every what-if one deployment id.
  const seed = `what-if ${nowMs} ${root.version}`;
  return { atMs: nowMs, stored: copy, agents: agentsOf(lastOffers, copy.instances), options: { ...scheduler.options() }, seed };
}

/**
 * The fork's agents. An agent's capacity is its last offer (what was free then) plus what the
 * live instances on it launched before that offer hold: those held it already when the offer was
 * made. Instances launched from that offer or after consumed it, and are not added. An agent that
 * runs instances but was never offered (it has been full since this pacer started) is taken as
 * exactly full. What tasks launched before the offer gave back when they ended is in the record
 * already (last-offers.ts). An agent cut off (a task there reported unreachable since its offer)
 * has nothing free: only what its reachable instances hold. Unreachable instances add nothing: the
 * fork's agents do not run their tasks (adopted-tasks.ts), so their share would be free there.
 * Approximations (docs/what-if.md): an instance's usage is booked to its role's reserved pool when
 * the agent has one, else to the unreserved pool.
 */
export function agentsOf(lastOffers: readonly LastOffer[], instances: readonly InstanceFields[]): ForkAgent[] {
  const onAgent = new Map<string, InstanceFields[]>();
  const infos = new Map<string, AgentInfo>();
  for (const inst of instances) {
    if (inst.agent === undefined || isTerminalCondition(inst.condition) || inst.condition === 'Scheduled' || isUnreachableCondition(inst.condition)) continue;
    const list = onAgent.get(inst.agent.agentId) ?? [];
    list.push(inst);
    onAgent.set(inst.agent.agentId, list);
    infos.set(inst.agent.agentId, inst.agent);
  }
  const agents: ForkAgent[] = [];
  const offered = new Set<string>();
  for (const offer of lastOffers) {
    offered.add(offer.agent.agentId);
    let pools = offer.unreachable === true ? noPools() : offer.pools.map((p) => ({ ...p }));
    for (const inst of onAgent.get(offer.agent.agentId) ?? []) {
      const launchedAtMs = Math.min(...inst.tasks.map((t) => t.launchedAtMs));
      const held = heldTasks(inst);
      if (!(launchedAtMs < offer.atMs) || held.length === 0) continue;
      pools = addTasksUsage(pools, inst, held);
    }
    agents.push({ info: offer.agent, pools });
  }
  for (const [agentId, list] of onAgent) {
    if (offered.has(agentId)) continue;
    let pools = noPools();
    for (const inst of list) {
      const held = heldTasks(inst);
      if (held.length > 0) pools = addTasksUsage(pools, inst, held);
    }
    agents.push({ info: infos.get(agentId) as AgentInfo, pools });
  }
  agents.sort((a, b) => (a.info.agentId < b.info.agentId ? -1 : a.info.agentId > b.info.agentId ? 1 : 0));
  return agents;
}

/** One unreserved pool with nothing in it: an agent's capacity before what runs there is added. */
function noPools(): OfferedPool[] {
  return [{ cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] }];
}

/**
 * The tasks of `inst` that still hold resources: those that have not ended (a pod's task that
 * ended gave its share back to its agent's record already, last-offers.ts).
 */
function heldTasks(inst: InstanceFields): readonly Task[] {
  return inst.tasks.filter((t) => t.state === undefined || !isTerminalTaskState(t.state));
}
