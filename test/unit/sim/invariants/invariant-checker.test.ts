import t from 'tap';
import type { AgentInfo } from '../../../../src/scheduler/model/agent';
import type { Instance } from '../../../../src/scheduler/model/instance';
import type { LaunchOperation, TaskLaunch } from '../../../../src/scheduler/model/launch';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';
import type { Scheduler } from '../../../../src/scheduler/scheduler';
import { InvariantChecker, type ClusterBooks } from '../../../../sim/invariants/invariant-checker';
import { makeAgent } from '../../../builders/cluster-builders';
import { constraint, makeApp } from '../../../builders/run-spec-builders';
import { makeTaskLaunch } from '../../../builders/launch-builders';

/** A stand-in for the scheduler's queries: the checker only reads run specs and instances. */
function fakeScheduler(specs: RunSpec[], instances: Partial<Instance>[]): Scheduler {
  return {
    runSpec: (id: string) => specs.find((s) => s.id === id),
    runSpecs: () => specs,
    instances: (id: string) => instances.filter((i) => i.runSpecId === id) as Instance[],
  } as unknown as Scheduler;
}

function books(over: Record<string, string> = {}, violations: string[] = []): ClusterBooks {
  return { violations, overcommitted: (agentId) => over[agentId], connectedTasks: () => [] };
}

function launch(spec: RunSpec, agentId: string, taskId = 't1'): TaskLaunch {
  return makeTaskLaunch({
    taskId, instanceId: 'i1', runSpecId: spec.id, runSpecVersion: spec.version, agentId, hostname: agentId,
    resources: { cpusMilli: 100, memMilli: 1000, diskMilli: 0, gpus: 0 },
  });
}

const app = makeApp({ id: '/web', constraints: [constraint('hostname', 'UNIQUE')] });
const placed = (agent: AgentInfo, id: string): Partial<Instance> => ({ instanceId: id, runSpecId: '/web', runSpecVersion: app.version, configVersion: app.versionInfo.lastConfigChangeAt, condition: 'Running', goal: 'Running', agent });

t.test('an over-committed agent touched by an accept is reported at the end of the step', async (t) => {
  const c = new InvariantChecker(fakeScheduler([app], []), books({ a1: 'agent a1 over-committed: cpus 5 > 4' }), undefined);
  t.same(c.afterStep(0), [], 'nothing touched yet');
  c.onAccept([{ kind: 'launch', task: launch(app, 'a1'), allocation: [] }], 0);
  t.same(c.afterStep(0), ['agent a1 over-committed: cpus 5 > 4']);
});

t.test('violations the cluster recorded itself are surfaced once each', async (t) => {
  const v: string[] = [];
  const c = new InvariantChecker(fakeScheduler([], []), books({}, v), undefined);
  v.push('launch exceeds offer-7');
  t.same(c.afterStep(0), ['launch exceeds offer-7']);
  t.same(c.afterStep(1), [], 'not repeated');
});

t.test('a pod instance split across agents is caught', async (t) => {
  const c = new InvariantChecker(fakeScheduler([app], []), books(), undefined);
  const op: LaunchOperation = {
    kind: 'launchGroup', executorId: 'e', executorResources: { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0 },
    labels: {}, networking: { mode: 'host', networks: [], portMappings: [] },
    tasks: [launch(app, 'a1', 't1'), launch(app, 'a2', 't2')], allocation: [],
  };
  c.onAccept([op], 0);
  t.match(c.afterStep(0).join(), /split across agents a1 and a2/);
});

t.test('placements that break a constraint are caught; decommissioned instances do not count', async (t) => {
  const h1 = makeAgent({ agentId: 'a1', hostname: 'h1' });
  const ok = new InvariantChecker(fakeScheduler([app], [placed(h1, 'i1'), { ...placed(h1, 'i2'), goal: 'Decommissioned' }]), books(), undefined);
  ok.onAccept([{ kind: 'launch', task: launch(app, 'a1'), allocation: [] }], 0);
  t.same(ok.afterStep(0), []);
  const bad = new InvariantChecker(fakeScheduler([app], [placed(h1, 'i1'), placed(h1, 'i2')]), books(), undefined);
  bad.onAccept([{ kind: 'launch', task: launch(app, 'a1'), allocation: [] }], 0);
  t.match(bad.afterStep(0).join(), /constraint violated by \/web/);
});

t.test('counts must converge within the bound after the last disturbance', async (t) => {
  const three = makeApp({ id: '/web', instances: 3 });
  const h1 = makeAgent({ agentId: 'a1', hostname: 'h1' });
  const c = new InvariantChecker(fakeScheduler([three], [placed(h1, 'i1'), placed(h1, 'i2')]), books(), 60_000);
  c.disturbed(10_000);
  t.same(c.afterStep(70_000), [], 'within the bound');
  t.match(c.afterStep(71_000).join(), /\/web has 2 running instances, target 3/);
});
