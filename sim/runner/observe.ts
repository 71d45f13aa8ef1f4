import type { Scheduler } from '../../src/scheduler/scheduler';
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
    deployment: (runSpecId) => {
      for (const { deployment, actions } of scheduler.deployments()) {
        const a = actions.find((x) => x.action.runSpecId === runSpecId);
        if (a !== undefined) return { deploymentId: deployment.plan.id, ...a.waitingFor };
      }
      return undefined;
    },
  };
}
