import t from 'tap';
import { createRunSession } from '../../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import { loadScenario } from '../../sim/scenario/load-scenario';
import { ApiListeners } from '../../src/runtime/api-listeners';
import { defaultConfig } from '../../src/runtime/config';
import { simApi } from '../../src/runtime/sim-api';
import { FakeSink } from '../api/events/fake-sink';

/**
 * `--cluster sim` over a workload with a `schedulerFailover` (src/runtime/sim-api.ts): during the
 * downtime a simulated write is refused as the write is (409); after the takeover, the API reads, streams and forks the core that took over (`RunSession.scheduler`),
 * not the one that died — which still held the state of the failover instant.
 */
t.test('after a workload\'s scheduler failover the API follows the core that took over', async (t) => {
  const yaml = [
    'name: sim-failover', 'seed: 5', 'duration: 10m',
    'cluster:', '  agents:', '    - { count: 3, resources: { cpus: 2, mem: 2048 } }',
    'timeline:',
    '  - at: 0s', '    app: { id: /web, cmd: "sleep 1000", instances: 2, cpus: 0.5, mem: 64 }',
    '  - at: 10s', '    schedulerFailover: { downtime: 20s }', '',
  ].join('\n');
  const loaded = loadScenario('sim-failover.yaml', yaml);
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const session = createRunSession(loaded.scenario, { invariants: false, trace: false });
  const config = { ...defaultConfig(process.cwd()), cluster: 'sim' as const, address: '127.0.0.1', port: 0 };
  const { app, hub } = simApi(session, loaded.scenario, config, () => undefined, Date.now(), { listeners: new ApiListeners(config) });
  t.teardown(() => app.close());
  const runTo = (ms: number): void => {
    while (session.step(VIRTUAL_EPOCH_MS + ms)) {
      // on to `ms` of virtual time
    }
  };
  runTo(15_000);
  t.equal(session.leaderless(), true, 'within the downtime');
  // The write and its what-if get the same answer: no core leads to take it, or to fork.
  for (const url of ['/v2/apps/web', '/v2/apps/web?dryRun=true&simulate=PT5M']) {
    const res = await app.inject({ method: 'PUT', url, payload: { instances: 3 } });
    t.equal(res.statusCode, 409, `${url} while no scheduler leads: ${res.body}`);
    t.match(JSON.parse(res.body), { message: /^App is locked by one or more deployments/, deployments: [] }, url);
  }
  runTo(40_000);
  t.equal(session.leaderless(), false, 'taken over');
  const stream = new FakeSink();
  hub.attach(stream, { remoteAddress: '127.0.0.1', eventTypes: [] });
  const scale = await app.inject({ method: 'PUT', url: '/v2/apps/web', payload: { instances: 3 } });
  t.equal(scale.statusCode, 200, scale.body);
  runTo(90_000);
  t.equal(session.scheduler.runSpec('/web')?.instances, 3, 'the core that took over scaled /web');

  const json = async (url: string): Promise<unknown> => {
    const res = await app.inject({ method: 'GET', url });
    t.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return JSON.parse(res.body) as unknown;
  };
  const reads: readonly [string, (body: unknown) => unknown, unknown][] = [
    ['/v2/apps/web', (b) => (b as { app: { instances: number } }).app.instances, 3],
    ['/v2/apps/web', (b) => (b as { app: { tasksRunning: number } }).app.tasksRunning, 3],
    ['/v2/tasks', (b) => (b as { tasks: unknown[] }).tasks.length, 3],
    ['/v2/capacity?app=/web', (b) => (b as { instances: number }).instances, 3],
  ];
  for (const [url, read, expected] of reads) t.equal(read(await json(url)), expected, url);

  hub.keepAlive();
  const streamed = Buffer.concat(stream.chunks).toString('utf8');
  t.match(streamed, /event: deployment_success/, '/v2/events streams the events of the core that took over');
  t.match(streamed, /event: status_update_event/);
});
