import t from 'tap';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, versionAt } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';
import type { ReadinessCheckSpec } from '../../../../src/scheduler/model/readiness-check';
import type { AppSpec } from '../../../../src/scheduler/model/app';

/** A readiness check on the first host port: every 30 s, ready on 200 (Marathon's defaults). */
function readiness(o: Partial<ReadinessCheckSpec> = {}): ReadinessCheckSpec {
  return {
    name: 'readinessCheck', protocol: 'HTTP', path: '/ready', portName: 'http', portIndex: 0, intervalMs: 30_000,
    timeoutMs: 10_000, httpStatusCodesForReady: [200], preserveLastResponse: false, ...o,
  };
}

function readyApp(o: Parameters<typeof makeApp>[0] = {}): AppSpec {
  return makeApp({ hostPorts: [0], readinessChecks: [readiness()], ...o });
}

/** Readiness probes sent so far. */
function readinessProbes(h: Harness) {
  return h.prober.requests.filter((r) => r.purpose === 'readiness');
}

t.test('a new instance is probed once Running; the deployment waits (notReady) until a probe answers a ready status', async (t) => {
  const h = new Harness();
  h.put(readyApp());
  const [task] = h.offer(makeOffer());
  t.same(readinessProbes(h), [], 'not probed before it runs');
  h.run(task);
  const [probe] = readinessProbes(h);
  t.match(probe, { protocol: 'HTTP', path: '/ready', port: task.hostPorts[0], taskId: task.taskId, timeoutMs: 10_000 });
  h.probe(probe.probeId, { httpStatus: 503 });
  const [status] = h.scheduler.deployments();
  t.match(status?.actions[0]?.waitingFor, { notReady: 1, notHealthy: 0, unplaced: 0 }, 'why it waits: not ready');
  t.same(h.scheduler.readiness('/app'), [{ name: 'readinessCheck', taskId: task.taskId, ready: false, lastResponse: null }]);
  h.advance(30_000);
  const again = readinessProbes(h);
  t.equal(again.length, 2, 'probed again after intervalSeconds');
  h.probe(again[1].probeId, { httpStatus: 200 });
  t.same(h.scheduler.deployments(), [], 'ready: the deployment finishes');
  t.equal(h.scheduler.instance(task.instanceId)?.ready, true);
  h.advance(120_000);
  t.equal(readinessProbes(h).length, 2, 'probing stops once ready');
});

t.test('httpStatusCodesForReady and preserveLastResponse', async (t) => {
  const h = new Harness();
  h.put(readyApp({ readinessChecks: [readiness({ httpStatusCodesForReady: [204], preserveLastResponse: true })] }));
  const [task] = h.offer(makeOffer());
  h.run(task);
  h.probe(readinessProbes(h)[0].probeId, { httpStatus: 200, contentType: 'text/plain', body: 'warming' });
  t.same(h.scheduler.readiness('/app')[0]?.lastResponse, { status: 200, contentType: 'text/plain', body: 'warming' }, '200 is not in [204]');
  t.equal(h.scheduler.deployments().length, 1);
  h.advance(30_000);
  h.probe(readinessProbes(h)[1].probeId, { httpStatus: 204 });
  t.equal(h.scheduler.deployments().length, 0);
  t.match(h.scheduler.readiness('/app'), [{ ready: true, lastResponse: { status: 204 } }]);
});

t.test('a rolling restart kills an old instance only when a new one is ready (fact 119)', async (t) => {
  const h = new Harness();
  const v1 = readyApp({ instances: 2 });
  h.put(v1);
  const old = h.offer(makeOffer());
  h.run(...old);
  for (const p of readinessProbes(h)) h.probe(p.probeId, { httpStatus: 200 });
  t.same(h.scheduler.deployments(), []);
  h.prober.clear();
  h.advance(1000);
  h.put(readyApp({ instances: 2, cmd: 'v2', version: versionAt(1), upgrade: { minimumHealthCapacity: 1, maximumOverCapacity: 0.5 } }));
  const [fresh] = h.offer(makeOffer());
  h.run(fresh);
  t.same(h.calls('kill'), [], 'running is not enough');
  const [probe] = readinessProbes(h);
  h.probe(probe.probeId, { timedOut: true });
  t.same(h.calls('kill'), [], 'a timed-out probe is not ready');
  h.advance(30_000);
  h.probe(readinessProbes(h)[1].probeId, { httpStatus: 200 });
  t.equal(h.calls('kill').length, 1, 'ready: one old instance goes');
});

t.test('an instance that ends forgets its readiness; its relaunch is checked again', async (t) => {
  const h = new Harness();
  h.put(readyApp());
  const [task] = h.offer(makeOffer());
  h.run(task);
  h.status(task.taskId, 'TASK_FAILED');
  t.same(h.scheduler.readiness('/app'), [], 'results of the ended incarnation are gone');
  t.equal(h.timers('readinessProbe').length, 0, 'its probe timer is cancelled');
  h.advance(5_000);
  const [relaunch] = h.offer(makeOffer());
  h.run(relaunch);
  t.equal(h.scheduler.readiness('/app')[0]?.taskId, relaunch.taskId);
});

t.test('apps without a readiness check are not probed for readiness', async (t) => {
  const h = new Harness();
  h.deploy(makeApp({ hostPorts: [0] }));
  t.same(readinessProbes(h), []);
  t.same(h.scheduler.readiness('/app'), []);
  t.same(h.scheduler.deployments(), []);
});
