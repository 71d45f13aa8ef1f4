import type { Scheduler } from '../../src/scheduler/index';
import type { SimCluster } from '../cluster/sim-cluster';
import type { ScenarioObservation } from '../scenario/scenario-observation';
import type { RunRecorder } from './run-recorder';

/** The scheduler's and cluster's state as the expectation evaluator sees it at `nowMs` (relative). */
export function observe(scheduler: Scheduler, cluster: SimCluster, recorder: RunRecorder, nowMs: number): ScenarioObservation {
  return {
    nowMs,
    instances: (runSpecId) => scheduler.instances(runSpecId).map((i) => ({
      instanceId: i.instanceId, runSpecId: i.runSpecId, condition: i.condition, healthy: i.healthy, agent: i.agent,
    })),
    events: recorder.events,
    rejections: (runSpecId) => scheduler.rejections(runSpecId)?.byReason() ?? {},
    agents: () => cluster.agentInfos(),
    hasHealthChecks: (runSpecId) => {
      const spec = scheduler.runSpec(runSpecId);
      if (spec === undefined) return undefined;
      return spec.kind === 'app' ? spec.healthChecks.length > 0 : spec.containers.some((c) => c.healthCheck !== undefined);
    },
    deployment: (runSpecId) => {
      // The deployment holding the run spec (as for locking); what it waits for, when its action is in the current step.
      for (const { deployment, actions } of scheduler.deployments()) {
        if (!deployment.plan.affectedRunSpecIds.includes(runSpecId)) continue;
        const a = actions.find((x) => x.action.runSpecId === runSpecId);
        return { deploymentId: deployment.plan.id, ...(a?.waitingFor ?? { unplaced: 0, notHealthy: 0, toReplace: 0, rejections: {} }) };
      }
      return undefined;
    },
  };
}
