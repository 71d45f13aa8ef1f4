import t from 'tap';
import type { SchedulerInput } from '../../../src/scheduler/model/inputs';
import type { LaunchOperation } from '../../../src/scheduler/model/launch';
import type { Offer } from '../../../src/scheduler/model/offer';
import { makeApp, makePod } from '../../builders/run-spec-builders';
import { agent, Harness } from '../../unit/sim/cluster/harness';
import { appLaunch, makeFixture, podLaunch, waitFor } from './local-fixture';
import { testAgentPorts } from '../../harness/agent-ports';

/*
 * One master model (issue 12, problem 4): the local cluster and the simulator offer the same
 * agent the same way and refuse the same ACCEPTs with the same answers, because both are the
 * master model (src/master). Each case is an ACCEPT every operation of which a Mesos master
 * refuses; it is sent to both clusters, and the master's answers (no uuid) must be equal.
 */

type Answer = [taskId: string, state: string, reason: string | undefined];

const cases: { name: string; ops: (offer: Offer) => LaunchOperation[]; stale?: boolean; want: string[] }[] = [
  { name: 'more cpus than offered', ops: (o) => [appLaunch(o, makeApp({ cpus: 5 })).op], want: ['TASK_ERROR REASON_TASK_INVALID'] },
  {
    name: 'a host port the offer does not have',
    ops: (o) => {
      const { op, task } = appLaunch(o, makeApp());
      return [{ ...op, task: { ...task, hostPorts: [22999] }, allocation: [{ ...op.allocation[0], ports: [[22999, 22999]] }] }];
    },
    want: ['TASK_ERROR REASON_TASK_INVALID'],
  },
  {
    name: 'a task for another agent',
    ops: (o) => {
      const { op, task } = appLaunch(o, makeApp());
      return [{ ...op, task: { ...task, agentId: 'agent-2' } }];
    },
    want: ['TASK_ERROR REASON_TASK_INVALID'],
  },
  { name: 'a pod whose executor has no disk', ops: (o) => [podLaunch(o, makePod({ executorResources: { disk: 0 } })).op], want: ['TASK_ERROR REASON_TASK_GROUP_INVALID'] },
  { name: 'a stale offer', ops: (o) => [appLaunch(o, makeApp()).op], stale: true, want: ['TASK_DROPPED REASON_INVALID_OFFERS'] },
];

function answersOf(inputs: readonly SchedulerInput[], taskIds: readonly string[]): Answer[] {
  return inputs.flatMap((i): Answer[] => (i.type === 'status' && i.status.uuid === undefined && taskIds.includes(i.status.taskId) ? [[i.status.taskId, i.status.state, i.status.reason]] : []));
}

t.test('the local cluster and the simulator answer the same refused ACCEPTs the same way', async (t) => {
  const local = makeFixture(t);
  let offer = await local.startAndOffer();
  const sim = new Harness({ agents: [agent('agent-1', { cpus: 4, mem: 4096, disk: 10_000, ports: [[...testAgentPorts()]] })] });
  sim.cluster.start();
  sim.runFor(0);
  const simOffer = (): Offer => sim.received.flatMap((r) => (r.input.type === 'offers' ? r.input.offers : [])).pop()!;
  t.same(simOffer().pools, offer.pools, 'the same agent is offered the same pools');

  for (const c of cases) {
    const ops = c.ops(offer);
    const taskIds = ops.flatMap((op) => (op.kind === 'launch' ? [op.task.taskId] : op.tasks.map((x) => x.taskId)));
    const seen = local.offers().length;
    local.cluster.accept(c.stale === true ? 'gone' : offer.offerId, ops, 0);
    sim.cluster.accept(c.stale === true ? 'gone' : simOffer().offerId, ops, 0);
    sim.runFor(1000);
    const fromLocal = await waitFor(() => { const a = answersOf(local.inputs, taskIds); return a.length === taskIds.length ? a : undefined; }, undefined, `answers to ${c.name}`);
    const fromSim = answersOf(sim.received.map((r) => r.input), taskIds);
    t.same(fromLocal.map(([, state, reason]) => `${state} ${reason}`), c.want, `${c.name}: local`);
    t.same(fromSim, fromLocal, `${c.name}: the simulator answers as the local cluster`);
    if (c.stale !== true) offer = await local.nextOffer(seen);
  }
});
