import t from 'tap';
import type { ProbeObservation, ProbeRequest } from '../../../../src/scheduler/ports/prober';
import { Harness, launchOp, RUNNING_AFTER_MS, startAndAccept, taskLaunch } from './harness';

function req(probeId: number, taskId: string, protocol: ProbeRequest['protocol'] = 'HTTP', timeoutMs = 2000): ProbeRequest {
  return { probeId, instanceId: `${taskId}.instance`, taskId, checkIndex: 0, protocol, host: 'a1.example', port: 31000, path: '/health', timeoutMs };
}

function results(h: Harness): (ProbeObservation & { t: number })[] {
  return h.inputsOfType('probeResult').map((r) => ({ t: r.t, ...r.observation }));
}

t.test('answers by the health model after the drawn latency', async (t) => {
  const h = new Harness();
  h.cluster.setHealthModel('/bad', { kind: 'failingFrom', fromMs: 0 });
  h.cluster.setHealthModel('/teapot', { kind: 'status', status: 102 });
  startAndAccept(h, [
    launchOp(taskLaunch('good', 'a1')),
    launchOp(taskLaunch('bad', 'a1', { runSpecId: '/bad' })),
    launchOp(taskLaunch('teapot', 'a1', { runSpecId: '/teapot' })),
  ]);
  h.runFor(RUNNING_AFTER_MS);
  const p = h.now;
  h.prober.probe(req(1, 'good'));
  h.prober.probe(req(2, 'bad', 'HTTPS'));
  h.prober.probe(req(3, 'teapot'));
  h.prober.probe(req(4, 'good', 'TCP'));
  h.prober.probe(req(5, 'bad', 'TCP'));
  h.prober.probe(req(6, 'teapot', 'TCP'));
  h.runFor(10_000);
  t.same(results(h).map((r) => ({ ...r, t: r.t - p })), [
    { t: 5, probeId: 1, httpStatus: 200 },
    { t: 5, probeId: 2, httpStatus: 500 },
    { t: 5, probeId: 3, httpStatus: 102 },
    { t: 5, probeId: 4, connected: true },
    { t: 5, probeId: 5, connected: false },
    { t: 5, probeId: 6, connected: true },
  ]);
});

t.test('slow beyond the timeout, unknown or terminal tasks, partitioned agents → timedOut at now + timeoutMs', async (t) => {
  const h = new Harness();
  h.cluster.setHealthModel('/slow', { kind: 'slow', latencyMs: 5000 });
  h.cluster.setHealthModel('/ok', { kind: 'slow', latencyMs: 1500 });
  startAndAccept(h, [launchOp(taskLaunch('slow', 'a1', { runSpecId: '/slow' })), launchOp(taskLaunch('ok', 'a1', { runSpecId: '/ok' })), launchOp(taskLaunch('dead', 'a1'))]);
  h.runFor(RUNNING_AFTER_MS);
  h.cluster.kill('dead', 'a1', 0);
  h.runFor(10);
  const p = h.now;
  h.prober.probe(req(1, 'slow'));
  h.prober.probe(req(2, 'ok'));
  h.prober.probe(req(3, 'nope', 'TCP', 3000));
  h.prober.probe(req(4, 'dead'));
  h.runFor(10_000);
  h.cluster.partitionAgent('a1');
  const q = h.now;
  h.prober.probe(req(5, 'ok', 'TCP', 1000));
  h.runFor(10_000);
  t.same(results(h).map((r) => [r.probeId, r.t - (r.probeId === 5 ? q : p), r.httpStatus ?? r.connected ?? r.timedOut]), [
    [2, 1500, 200],
    [1, 2000, true],
    [4, 2000, true],
    [3, 3000, true],
    [5, 1000, true],
  ], 'slow within timeout answers late; the rest time out');
  t.match(h.trace.filter((l) => l.includes('"op":"probe"')).length, 5, 'every probe traced');
});

t.test('a task not running yet refuses the connection', async (t) => {
  const h = new Harness();
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(200);
  h.prober.probe(req(1, 't1'));
  h.runFor(100);
  t.same(results(h).map((r) => [r.probeId, r.connected, r.timedOut]), [[1, false, undefined]]);
});
