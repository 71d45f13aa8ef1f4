import t from 'tap';
import type { MarathonEvent } from '../../../../src/scheduler/model/events';
import { Instance, type Task, type InstanceFields } from '../../../../src/scheduler/model/instance';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';
import type { LiveTask } from '../../../../sim/cluster/cluster-types';
import { FailoverOracle, type FailoverView } from '../../../../sim/invariants/failover-oracle';
import { makeAgent } from '../../../builders/cluster-builders';
import { makeApp, versionAt } from '../../../builders/run-spec-builders';

/** A core as the oracle reads it: run specs, instances, running deployments by id (`stop:/web` stops /web). */
function view(specs: RunSpec[], instances: Instance[], deployments: string[] = []): FailoverView {
  return {
    runSpecs: () => specs,
    instances: (id: string) => instances.filter((i) => i.runSpecId === id),
    instance: (id: string) => instances.find((i) => i.instanceId === id),
    deployments: () => deployments.map((id) => {
      const stopped = id.startsWith('stop:') ? id.slice('stop:'.length) : undefined;
      return {
        deployment: { plan: { id, affectedRunSpecIds: [stopped ?? '/web'] } },
        actions: stopped === undefined ? [] : [{ action: { action: 'StopApplication', runSpecId: stopped } }],
      };
    }),
  } as unknown as FailoverView;
}

function running(id: string, o: Partial<InstanceFields> = {}): Instance {
  const task = { taskId: `${id}.t1` } as Task;
  return Instance.from({
    instanceId: id, runSpecId: '/web', kind: 'app', runSpecVersion: versionAt(0), configVersion: versionAt(0), incarnation: 1,
    goal: 'Running', condition: 'Running', conditionSinceMs: 0, role: '*', tasks: [task], agent: makeAgent({ agentId: 'a1' }), ...o,
  });
}

const web = makeApp({ id: '/web', version: versionAt(0) });
const live = (instanceId: string): LiveTask => ({ taskId: `${instanceId}.t1`, agentId: 'a1', state: 'TASK_RUNNING', runSpecId: '/web', instanceId });
const dead = view([web], [running('i1'), running('i2'), running('i3', { condition: 'Killed' })], ['d1']);

t.test('what the new core recovered is compared with what the dead one knew', async (t) => {
  const cases: { name: string; after: FailoverView; found: RegExp[] }[] = [
    { name: 'everything recovered', after: view([web], [running('i1'), running('i2')], ['d1']), found: [] },
    { name: 'a terminal instance may be gone', after: view([web], [running('i1'), running('i2')], ['d1']), found: [] },
    { name: 'an instance lost', after: view([web], [running('i1')], ['d1']), found: [/instance i2 was lost/] },
    { name: 'a goal changed', after: view([web], [running('i1'), running('i2', { goal: 'Decommissioned' })], ['d1']), found: [/instance i2 came back with goal Decommissioned, not Running/] },
    { name: 'a task changed', after: view([web], [running('i1'), running('i2', { tasks: [{ taskId: 'other' } as Task] })], ['d1']), found: [/tasks \[other\], not \[i2.t1\]/] },
    { name: 'a deployment lost', after: view([web], [running('i1'), running('i2')]), found: [/deployment d1 was lost/] },
    { name: 'a run spec lost', after: view([], [], ['d1']), found: [/run spec \/web was lost/, /instance i1 was lost/, /instance i2 was lost/] },
    { name: 'an older version', after: view([makeApp({ id: '/web', version: versionAt(-5) })], [running('i1'), running('i2')], ['d1']), found: [/run spec \/web came back as version/] },
  ];
  for (const c of cases) {
    const oracle = new FailoverOracle();
    oracle.onCrash(dead);
    const got = oracle.onTakeover(c.after, 1000);
    t.equal(got.length, c.found.length, `${c.name}: ${got.join('; ')}`);
    c.found.forEach((re, i) => t.match(got[i], re, c.name));
  }
});

t.test('re-applying a running stop forgets nothing the dead core kept: no instance may go, unreachable or not', async (t) => {
  // A running core already forgets an instance being killed that becomes unreachable (the kill
  // rule, kill/kill-instance.ts cannotAnswerKill), so a recovered core has nothing more to forget.
  const unreachable = (id: string, goal: Instance['goal']) => running(id, { condition: 'Unreachable', goal });
  const cases: { name: string; before: Instance[] }[] = [
    { name: 'an unreachable instance being stopped', before: [unreachable('i1', 'Decommissioned')] },
    { name: 'an unreachable instance to run again', before: [unreachable('i1', 'Running')] },
    { name: 'a running instance being stopped', before: [running('i1', { goal: 'Decommissioned' })] },
  ];
  for (const c of cases) {
    const oracle = new FailoverOracle();
    oracle.onCrash(view([web], c.before, ['stop:/web']));
    t.match(oracle.onTakeover(view([], []), 1000), [/run spec \/web was lost/, /deployment stop:\/web was lost/, /instance i1 was lost/], c.name);
  }
});

t.test('an unreachable instance whose expunge deadline passed while none led may be gone', async (t) => {
  const spec: RunSpec = { ...web, unreachable: { kind: 'enabled', inactiveAfterMs: 100, expungeAfterMs: 600 } };
  const inst = running('i1', { condition: 'Unreachable', unreachableSinceMs: 400 });
  for (const [clockMs, found] of [[1000, 0], [999, 1]] as const) {
    const oracle = new FailoverOracle();
    oracle.onCrash(view([spec], [inst]));
    t.equal(oracle.onTakeover(view([spec], []), 5, clockMs).length, found, `takeover at ${clockMs} ms, expunge deadline 1000 ms`);
  }
});

t.test('after the reconciliation, every task the dead core knew that still runs must be known; none may be killed as unknown meanwhile', async (t) => {
  const oracle = new FailoverOracle();
  oracle.onCrash(dead);
  const after = view([web], [running('i1')], ['d1']);
  t.match(oracle.onTakeover(after, 1000), [/instance i2 was lost/]);
  const unknownKill = { eventType: 'unknown_instance_terminated_event', instanceId: 'i2', runSpecId: '/web', condition: 'Killed' } as unknown as MarathonEvent;
  oracle.onEvent(unknownKill);
  const tasks = [live('i1'), live('i2'), { ...live('stray'), taskId: 'stray.t1' }];
  t.match(oracle.afterStep(1000, after, () => tasks), [/killed instance i2 of \/web as unknown/], 'at the takeover instant: the kill, no task check yet');
  t.match(oracle.afterStep(1001, after, () => tasks), [/task i2.t1 of \/web runs on a1 \(TASK_RUNNING\) but the new scheduler does not know it/],
    'once the clock moved on: the known task nobody knows (a stray the dead core never knew is not its concern)');
  t.same(oracle.afterStep(2000, after, () => tasks), [], 'checked once');
  oracle.onEvent(unknownKill);
  t.same(oracle.afterStep(3000, after, () => tasks), [], 'later the new core may forget an instance by its own rules');
});

t.test('a task the new core recovered and then killed or forgot by its own decision is not lost by the failover', async (t) => {
  // Swarm seeds 20853, 20967, 21603 …: a kill with wipe (or a scale-down) in the step just after the
  // takeover forgets the instance while its task still runs, before the reconciliation check.
  const oracle = new FailoverOracle();
  oracle.onCrash(dead);
  const recovered = view([web], [running('i1'), running('i2')], ['d1']);
  t.same(oracle.onTakeover(recovered, 1000), [], 'everything recovered');
  const afterWipe = view([web], [running('i1')], ['d1']);
  t.same(oracle.afterStep(1001, afterWipe, () => [live('i1'), live('i2')]), [], 'i2 was known at the takeover: its kill is the new core\'s');
});
