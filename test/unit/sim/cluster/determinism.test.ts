import t from 'tap';
import { agent, groupOp, Harness, launchOp, taskLaunch } from './harness';

/** A small busy run: three agents, crash loops, flaky health, a partition, kills, reconciliation. */
function run(seed: number | string): Harness {
  const h = new Harness({
    seed,
    agents: [agent('a1'), agent('a2'), agent('a3')],
    timings: { stagingMs: [50, 200], startingMs: [100, 1000], runningMs: [200, 2000], shutdownMs: [100, 2000], probeLatencyMs: [1, 20] },
  });
  h.cluster.setTaskModel('/crash', { kind: 'exitAfter', afterMs: [1000, 30_000], state: 'TASK_FAILED' });
  h.cluster.setHealthModel('/app', { kind: 'flaky', p: 0.3 });
  h.cluster.start();
  let n = 0;
  let seen = 0;
  for (let round = 0; round < 20; round++) {
    h.runFor(1000);
    const batches = h.offerBatches();
    for (const b of batches.slice(seen)) {
      for (const o of b.offers) {
        if (o.pools[0] === undefined || o.pools[0].cpusMilli < 2100 || o.pools[0].memMilli < 1_000_000) {
          h.cluster.decline([o.offerId], 2000);
          continue;
        }
        const a = o.agent.agentId;
        h.cluster.accept(o.offerId, [
          launchOp(taskLaunch(`c${++n}`, a, { runSpecId: '/crash' })),
          launchOp(taskLaunch(`h${++n}`, a, { healthCheck: { intervalMs: 2000, maxConsecutiveFailures: 3 } })),
          groupOp(`e${n}`, [taskLaunch(`p${++n}`, a, { runSpecId: '/crash' }), taskLaunch(`q${n}`, a, { runSpecId: '/pod' })]),
        ], 1000);
      }
    }
    seen = batches.length;
    for (const live of h.cluster.liveTasks().filter((x) => x.runSpecId === '/app').slice(0, 1)) h.prober.probe({ probeId: round, instanceId: live.instanceId, taskId: live.taskId, checkIndex: 0, protocol: 'HTTP', host: 'x', port: 1, path: '/', timeoutMs: 10 });
    if (round === 5) h.cluster.partitionAgent('a2');
    if (round === 8) h.cluster.kill('h2', undefined, 500);
    if (round === 12) h.cluster.reconcile([]);
  }
  h.runFor(100_000);
  h.cluster.healAgent('a2');
  h.runFor(60_000);
  return h;
}

t.test('same seed ⇒ identical trace; different seed ⇒ different timings', async (t) => {
  const a = run(42);
  const b = run(42);
  const c = run(43);
  t.ok(a.trace.length > 200, `a busy trace (${a.trace.length} records)`);
  t.same(a.trace, b.trace, 'byte-identical');
  t.not(a.trace.join('\n'), c.trace.join('\n'), 'another seed, another run');
  const times = (h: Harness) => JSON.stringify(h.statuses().map((s) => s.t));
  t.equal(times(a), times(b));
  t.not(times(a), times(c), 'different timings');
  t.ok(a.trace.every((l) => /^\{"t":\d+,"k":"(call|cluster)"/.test(l)), 'compact records, fixed key order');
  t.same(a.cluster.violations, []);
});
