import t from 'tap';
import { drawChance, drawDelayMs } from '../../../../sim/cluster/draw';
import { passStableUntilMs, respondHealth } from '../../../../sim/cluster/health-responder';
import { agentCheckPasses, nextGridMs } from '../../../../sim/cluster/agent-check';
import { createWorldStreams } from '../../../../sim/world';

t.test('world streams: one per subsystem, seeded by name', async (t) => {
  const a = createWorldStreams(1);
  const b = createWorldStreams(1);
  const c = createWorldStreams('1');
  const d = createWorldStreams(2);
  const draw = (r: { next(): number }) => [r.next(), r.next(), r.next()];
  t.same(draw(a.tasks), draw(b.tasks), 'same seed, same sequence');
  t.same(draw(c.tasks), draw(createWorldStreams(1).tasks), 'number and string seeds agree');
  t.not(draw(d.tasks)[0], draw(createWorldStreams(1).tasks)[0]);
  const x = createWorldStreams(9);
  const y = createWorldStreams(9);
  draw(x.offers); // extra draws in one stream …
  t.same(draw(x.tasks), draw(y.tasks), '… never shift another');
  const names = ['ids', 'offers', 'tasks', 'health', 'faults', 'workload'] as const;
  const firsts = names.map((n) => createWorldStreams(3)[n].next());
  t.equal(new Set(firsts).size, names.length, 'independent streams');
  t.ok(firsts.every((v) => v >= 0 && v < 1));
});

t.test('drawDelayMs: integer, uniform, inclusive bounds', async (t) => {
  const r = createWorldStreams(5).tasks;
  const seen = new Set<number>();
  for (let i = 0; i < 2000; i++) {
    const v = drawDelayMs(r, [3, 7]);
    t.ok(Number.isInteger(v) && v >= 3 && v <= 7);
    seen.add(v);
  }
  t.same([...seen].sort(), [3, 4, 5, 6, 7], 'both bounds reachable');
  t.equal(drawDelayMs({ next: () => 0.999999 }, [10, 10]), 10);
  t.throws(() => drawDelayMs(r, [5, 3]), RangeError);
  t.throws(() => drawDelayMs(r, [0.5, 3]), RangeError);
  t.equal(drawChance({ next: () => 0.2 }, 0.3), true);
  t.equal(drawChance({ next: () => 0.3 }, 0.3), false);
});

t.test('health responder and agent check verdicts', async (t) => {
  const r = { next: () => 0.5 };
  t.same(respondHealth({ kind: 'healthy' }, 0, 0, r), { up: true, status: 200 });
  t.same(respondHealth({ kind: 'flaky', p: 0.6 }, 0, 0, r).up, false);
  t.same(respondHealth({ kind: 'flaky', p: 0.4 }, 0, 0, r).up, true);
  t.same(respondHealth({ kind: 'failingFrom', fromMs: 10 }, 109, 100, r).up, true, 'relative to scenario start');
  t.same(respondHealth({ kind: 'failingFrom', fromMs: 10 }, 110, 100, r).up, false);
  t.same(respondHealth({ kind: 'failingFrom', fromMs: 10 }, 105, 100, r).up, true);
  t.same(respondHealth({ kind: 'failingDuring', fromMs: 10, toMs: 20 }, 120, 100, r).up, true, 'end exclusive');
  t.equal(passStableUntilMs({ kind: 'healthy' }, 5, 0), Infinity);
  t.equal(passStableUntilMs({ kind: 'flaky', p: 0 }, 5, 0), Infinity);
  t.equal(passStableUntilMs({ kind: 'flaky', p: 0.1 }, 5, 0), 6);
  t.equal(passStableUntilMs({ kind: 'failingFrom', fromMs: 50 }, 5, 10), 60);
  t.equal(passStableUntilMs({ kind: 'failingDuring', fromMs: 50, toMs: 60 }, 5, 0), 50);
  t.equal(passStableUntilMs({ kind: 'failingDuring', fromMs: 50, toMs: 60 }, 60, 0), Infinity);
  t.ok(agentCheckPasses('MESOS_HTTP', { up: true, status: 399 }, 10));
  t.notOk(agentCheckPasses('MESOS_HTTP', { up: true, status: 102 }, 10));
  t.notOk(agentCheckPasses('COMMAND', { up: true, status: 500 }, 10));
  t.ok(agentCheckPasses('MESOS_TCP', { up: true, status: 500 }, 10));
  t.notOk(agentCheckPasses('MESOS_TCP', { up: true, status: 200, latencyMs: 11 }, 10));
  t.equal(nextGridMs(100, 10, 50), 100);
  t.equal(nextGridMs(100, 10, 100), 100);
  t.equal(nextGridMs(100, 10, 101), 110);
});
