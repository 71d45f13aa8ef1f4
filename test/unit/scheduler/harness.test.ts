import t from 'tap';
import { sameConfig } from '../../../src/scheduler/model/same-config';
import { makeOffer } from '../../builders/cluster-builders';
import { constraint, makeApp, makeHealthCheck, makePod, versionAt } from '../../builders/run-spec-builders';
import { Harness, START_MS } from '../../harness/core-harness';
import { HeapLoop } from '../../../src/scheduler/kernel/heap-loop';

t.test('builders: app defaults are Marathon app defaults in milli-units', async (t) => {
  const app = makeApp();
  t.match(app, {
    kind: 'app', id: '/app', version: '2026-01-01T00:00:00.000Z', instances: 1, role: '*',
    resources: { cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0 }, hostPorts: [],
    backoff: { initialMs: 1000, factor: 1.15, maxMs: 300_000 },
    unreachable: { kind: 'enabled', inactiveAfterMs: 0, expungeAfterMs: 0 },
    killSelection: 'YOUNGEST_FIRST', killGracePeriodMs: 3000,
    versionInfo: { lastScalingAt: app.version, lastConfigChangeAt: app.version },
  });
});

t.test('builders: sameConfig sees config changes but not scaling see config changes but not scaling', async (t) => {
  const base = makeApp();
  t.ok(sameConfig(base, makeApp({ instances: 5, version: versionAt(10) })), 'instances + version only');
  const changes = [
    makeApp({ cmd: 'other' }), makeApp({ cpus: 0.2 }), makeApp({ mem: 64 }), makeApp({ hostPorts: [0] }),
    makeApp({ constraints: [constraint('hostname', 'UNIQUE')] }), makeApp({ role: 'dev' }),
    makeApp({ acceptedResourceRoles: ['*'] }), makeApp({ healthChecks: [makeHealthCheck()] }),
    makeApp({ killGracePeriodMs: 10_000 }), makeApp({ backoff: { initialMs: 2000, factor: 1.15, maxMs: 300_000 } }),
  ];
  for (const c of changes) t.notOk(sameConfig(base, c), JSON.stringify(c).slice(0, 60));
  const pod = makePod();
  t.ok(sameConfig(pod, makePod({ instances: 3 })));
  t.notOk(sameConfig(pod, makePod({ containers: [{ name: 'main', mem: 64 }] })));
});

t.test('builders: offer pools in milli-units, reserved pools after the unreserved one', async (t) => {
  const o = makeOffer({ cpus: 1, mem: 128, reserved: [{ role: 'dev', cpus: 0.5, ports: [[8000, 8001]] }], allocationRole: 'dev' });
  t.same(o.pools.map((p) => [p.reservedFor, p.cpusMilli, p.memMilli, p.ports]), [
    [undefined, 1000, 128_000, [[31000, 32000]]],
    ['dev', 500, 0, [[8000, 8001]]],
  ]);
  t.equal(o.allocationRole, 'dev');
  t.equal(makeOffer({ unreserved: false, reserved: [{ role: 'dev', cpus: 1 }] }).pools.length, 1);
});

t.test('harness: timers fire when due, with the clock at their due time', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/a' }));
  h.put(makeApp({ id: '/b' }));
  const launched = h.offer(makeOffer());
  t.equal(launched.length, 2, 'one offer hosts both');
  h.advance(500);
  for (const task of launched) h.status(task.taskId, 'TASK_FAILED');
  t.same(['/a', '/b'].map((id) => h.scheduler.backoffUntilMs(id)), [START_MS + 1500, START_MS + 1500]);
  t.same(h.timers('backoffExpired').map((x) => x.dueMs), [START_MS + 1500, START_MS + 1500]);
  h.advance(999);
  t.equal(h.timers('backoffExpired').length, 2, 'not yet due');
  t.equal(h.nowMs, START_MS + 1499);
  h.advance(1);
  t.equal(h.timers('backoffExpired').length, 0, 'both fired');
  t.equal(h.nowMs, START_MS + 1500);
  t.equal(h.scheduler.backoffUntilMs('/a'), undefined);
});

t.test('HeapLoop: (dueMs, seq) order, lazy cancel', async (t) => {
  const loop = new HeapLoop<string>();
  loop.schedule(20, 'c');
  loop.schedule(10, 'a');
  const dropped = loop.schedule(10, 'x');
  loop.schedule(10, 'b');
  loop.schedule(5, 'first');
  loop.cancel(dropped);
  loop.cancel(999);
  t.equal(loop.size, 4);
  t.equal(loop.peekDueMs(), 5);
  const out: string[] = [];
  for (let e = loop.popDue(15); e !== undefined; e = loop.popDue(15)) out.push(e.input);
  t.same(out, ['first', 'a', 'b'], 'same due time: posting order; cancelled skipped; later ones wait');
  t.equal(loop.peekDueMs(), 20);
  t.equal(loop.popDue(25)?.input, 'c');
  t.equal(loop.peekDueMs(), undefined);
});
