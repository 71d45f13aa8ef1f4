import t from 'tap';
import { createRunSession } from '../../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import { loadScenario } from '../../sim/scenario/load-scenario';
import { ApiListeners } from '../../src/runtime/api-listeners';
import { defaultConfig } from '../../src/runtime/config';
import { simApi } from '../../src/runtime/sim-api';

/**
 * `--cluster sim` serves what-if too (src/runtime/sim-api.ts): the fork's agents come from the
 * offers the run's core was handed (RunSession.onInput), and the simulated write changes nothing
 * in the run.
 */
t.test('a what-if over --cluster sim answers from the run\'s last offers and leaves the run alone', async (t) => {
  const yaml = [
    'name: sim-what-if', 'seed: 5', 'duration: 10m',
    'cluster:', '  agents:', '    - { count: 3, resources: { cpus: 2, mem: 2048 } }',
    'timeline:', '  - at: 0s', '    app: { id: /web, cmd: "sleep 1000", instances: 2, cpus: 0.5, mem: 64 }', '',
  ].join('\n');
  const loaded = loadScenario('sim-what-if.yaml', yaml);
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const session = createRunSession(loaded.scenario, { invariants: false, trace: false });
  const config = { ...defaultConfig(process.cwd()), cluster: 'sim' as const, address: '127.0.0.1', port: 0 };
  const { app } = simApi(session, loaded.scenario, config, () => undefined, Date.now(), { listeners: new ApiListeners(config) });
  t.teardown(() => app.close());
  while (session.step(VIRTUAL_EPOCH_MS + 30_000)) {
    // to steady state
  }
  const res = await app.inject({ method: 'PUT', url: '/v2/apps/web?dryRun=true&simulate=PT5M', payload: { instances: 14 } });
  t.equal(res.statusCode, 200, res.body);
  const a = JSON.parse(res.body) as { agents: number; launched: unknown[]; deployment: string; waiting: { instances: number }[] };
  t.equal(a.agents, 3, 'the three agents, from their last offers');
  t.equal(a.launched.length, 10, '6 cpus hold 12 instances of 0.5: 10 more than the 2 running');
  t.equal(a.deployment, 'running');
  t.same(a.waiting.map((w) => w.instances), [2]);
  t.equal(session.scheduler.runSpec('/web')?.instances, 2, 'the run is unchanged');
  t.same(session.scheduler.runningPlans(), [], 'no deployment in the run');
  const cap = await app.inject({ method: 'GET', url: '/v2/capacity?app=/web' });
  t.equal(cap.statusCode, 200);
  t.equal((JSON.parse(cap.body) as { fits: number }).fits, 10);
});
