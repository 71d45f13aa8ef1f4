import t from 'tap';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';
import type { TaskState } from '../../../../src/scheduler/model/task-state';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makeHealthCheck, makePod } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';
import type { InstanceContext } from '../../../../src/scheduler/instances/instance-context';
import { InstanceEffects } from '../../../../src/scheduler/instances/instance-effects';
import { flushTaskFailures, recordTaskFailure } from '../../../../src/scheduler/instances/record-task-failure';
import { Instance } from '../../../../src/scheduler/model/instance';
import { newRunSpecState } from '../../../../src/scheduler/state/new-run-spec-state';
import type { RunSpecState } from '../../../../src/scheduler/state/run-spec-state';

/** One running instance of `/app` on agent a1 / host h1. */
function running(spec: RunSpec = makeApp()) {
  const h = new Harness();
  const [l] = h.deploy(spec, makeOffer({ agent: { hostname: 'h1', agentId: 'a1' } }));
  return { h, l, spec };
}

t.test('lastTaskFailure: recorded for failure states only, in Marathon\'s TaskFailure shape', async (t) => {
  const table: [TaskState, boolean][] = [
    ['TASK_FAILED', true], ['TASK_ERROR', true], ['TASK_LOST', true], ['TASK_DROPPED', true], ['TASK_GONE', true],
    ['TASK_GONE_BY_OPERATOR', true], ['TASK_UNKNOWN', true],
    ['TASK_FINISHED', false], ['TASK_KILLED', false], ['TASK_KILLING', false], ['TASK_UNREACHABLE', false],
  ];
  for (const [state, recorded] of table) {
    const { h, l, spec } = running();
    t.equal(h.scheduler.lastTaskFailure('/app'), undefined, `${state}: nothing before`);
    h.advance(2_000);
    h.status(l.taskId, state, { message: 'it broke' });
    const expected = {
      appId: '/app', host: 'h1', message: 'it broke', state, taskId: l.taskId,
      timestamp: new Date(h.nowMs).toISOString(), version: spec.version, slaveId: 'a1',
    };
    t.same(h.scheduler.lastTaskFailure('/app'), recorded ? expected : undefined, state);
  }
});

t.test('the newest failure wins; an empty message is ""; a duplicate update does not move it', async (t) => {
  const { h, l } = running(makeApp({ instances: 2 }));
  h.status(l.taskId, 'TASK_FAILED');
  t.match(h.scheduler.lastTaskFailure('/app'), { taskId: l.taskId, state: 'TASK_FAILED', message: '' });
  const first = h.scheduler.lastTaskFailure('/app');
  h.advance(1_000);
  h.status(l.taskId, 'TASK_FAILED', { message: 'again' });
  t.equal(h.scheduler.lastTaskFailure('/app'), first, 'the same state reported twice is not a new failure');
  const [next] = h.offer(makeOffer({ agent: { hostname: 'h2', agentId: 'a2' } }));
  h.run(next);
  h.advance(1_000);
  h.status(next.taskId, 'TASK_ERROR', { message: 'bad config' });
  t.match(h.scheduler.lastTaskFailure('/app'), { taskId: next.taskId, state: 'TASK_ERROR', message: 'bad config', host: 'h2', slaveId: 'a2' });
});

t.test('a kill for failing health checks is recorded as TASK_KILLED with the reason', async (t) => {
  const hc = makeHealthCheck({ gracePeriodMs: 0, intervalMs: 10_000, maxConsecutiveFailures: 1 });
  const { h, l, spec } = running(makeApp({ hostPorts: [0], healthChecks: [hc] }));
  const probe = h.prober.last();
  if (probe !== undefined) h.probe(probe.probeId, { httpStatus: 500 });
  t.same(h.scheduler.lastTaskFailure('/app'), {
    appId: '/app', host: 'h1', message: 'HTTP health check failed 1 times consecutively (HTTP 500)', state: 'TASK_KILLED',
    taskId: l.taskId, timestamp: new Date(h.nowMs).toISOString(), version: spec.version, slaveId: 'a1',
  });
  h.status(l.taskId, 'TASK_KILLED');
  t.match(h.scheduler.lastTaskFailure('/app'), { state: 'TASK_KILLED', message: /health check failed/ }, 'the kill itself is not a failure');
});

t.test('pods record failures too; the record goes with the run spec', async (t) => {
  const { h, l } = running(makePod({ id: '/app' }));
  h.status(l.taskId, 'TASK_FAILED', { message: 'oom' });
  t.match(h.scheduler.lastTaskFailure('/app'), { appId: '/app', taskId: l.taskId, state: 'TASK_FAILED', message: 'oom' });
  h.delete('/app');
  for (const kill of h.calls('kill')) h.status(kill.taskId, 'TASK_KILLED');
  t.equal(h.scheduler.runSpec('/app'), undefined, 'deleted');
  t.equal(h.scheduler.lastTaskFailure('/app'), undefined, 'and its failure forgotten');
  t.equal(h.scheduler.lastTaskFailure('/unknown'), undefined);
});

t.test('failures within one input are written once per run spec, the newest; none for a run spec gone by the end of the input', async (t) => {
  const rs = (id: string): RunSpecState => newRunSpecState(makeApp({ id }), 10);
  const [a, b, gone] = [rs('/a'), rs('/b'), rs('/gone')];
  const effects = new InstanceEffects();
  const ctx = { state: { runSpecs: new Map([['/a', a], ['/b', b]]), failuresToWrite: new Set<RunSpecState>() }, effects } as unknown as InstanceContext;
  const inst = (runSpecId: string): Instance => Instance.from({
    instanceId: `${runSpecId}.i`, runSpecId, kind: 'app', runSpecVersion: 'v', configVersion: 'v', incarnation: 1,
    goal: 'Running', condition: 'Running', conditionSinceMs: 0, role: '*', tasks: [],
  });
  // As a kill-floor timer that lets several held unhealthy kills go in one input.
  for (const task of ['t1', 't2', 't3']) recordTaskFailure(ctx, a, inst('/a'), task, 'TASK_KILLED', 'unhealthy', 1_000);
  recordTaskFailure(ctx, b, inst('/b'), 't4', 'TASK_FAILED', 'x'.repeat(5_000), 1_000);
  recordTaskFailure(ctx, gone, inst('/gone'), 't5', 'TASK_FAILED', '', 1_000);
  flushTaskFailures(ctx);
  const writes = effects.take().flatMap((e) => (e.kind === 'saveTaskFailure' ? [e.failure] : []));
  t.same(writes.map((f) => [f.appId, f.taskId, f.message.length]), [['/a', 't3', 9], ['/b', 't4', 4_096]]);
  flushTaskFailures(ctx);
  t.same(effects.take(), [], 'nothing more until the next failure');
});
