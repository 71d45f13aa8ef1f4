import t from 'tap';
import { makeAgent, makeOffer } from '../../builders/cluster-builders';
import { makeApp, makeHealthCheck, makePod, type AppOverrides } from '../../builders/run-spec-builders';
import { Harness } from '../../harness/core-harness';

/** A scripted run touching matching, failures, backoff, health, unreachable and scaling. Offer ids are explicit. */
function script(seed: string): { ids: string[]; effects: string } {
  const h = new Harness({ seed });
  const agents = [1, 2, 3].map((i) => makeAgent({ hostname: `h${i}`, zone: `z${i}` }));
  const app: AppOverrides = { id: '/web', instances: 4, hostPorts: [0], healthChecks: [makeHealthCheck({ gracePeriodMs: 0, maxConsecutiveFailures: 2 })] };
  h.put(makeApp(app));
  h.put(makePod({ id: '/pod', instances: 2, containers: [{ name: 'a' }, { name: 'b' }] }));
  let n = 0;
  const offers = () => agents.map((agent) => makeOffer({ offerId: `o${++n}`, agent, cpus: 0.5 }));
  const launched = h.offer(...offers());
  h.run(launched);
  for (let i = 0; i < 5; i++) {
    const req = h.prober.last();
    if (req !== undefined) h.probe(req.probeId, { httpStatus: i % 2 === 0 ? 500 : 200 });
    h.advance(60_000);
  }
  h.status(launched[0].taskId, 'TASK_FAILED');
  h.status(launched[launched.length - 1].taskId, 'TASK_UNREACHABLE');
  h.advance(5000);
  h.run(h.offer(...offers()));
  // /web's deployment never gets all four instances healthy: force the scale-down past its lock.
  if (!h.scale('/web', 1, { force: true }).ok) throw new Error('scale refused');
  for (const k of h.calls('kill')) h.status(k.taskId, 'TASK_KILLED');
  h.advance(700_000);
  const ids = [...h.instances('/web'), ...h.instances('/pod')].map((i) => i.instanceId);
  return { ids, effects: JSON.stringify(h.effects, (k, v) => (k === 'spec' ? (v as { id: string }).id : v)) };
}

t.test('same seed ⇒ same ids, same calls, same events, same store writes', async (t) => {
  const a = script('seed-1');
  const b = script('seed-1');
  t.ok(a.ids.length > 0);
  t.same(a.ids, b.ids);
  t.equal(a.effects, b.effects);
  t.ok(a.effects.length > 10_000, 'a non-trivial run');
});

t.test('another seed ⇒ other instance ids', async (t) => {
  const a = script('seed-1');
  const c = script('seed-2');
  t.notSame(a.ids, c.ids);
});
