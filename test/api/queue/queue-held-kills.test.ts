import t from 'tap';
import { UNHEALTHY_KILL_FLOOR_LABEL } from '../../../src/scheduler/health/unhealthy-kill-floor';
import { makeApi, type ApiFixture } from '../api-fixture';
import { confirmKills, healthyApp, nextRound } from '../../harness/health-storm';
import { call, apiFor, appBody } from '../apps/apps-kit';

/** `GET /v2/queue` shows why unhealthy kills wait (kill-storm protection, issue 18): `heldUnhealthyKills` beside Marathon's `queue`. */

interface HeldWire {
  appId: string;
  instances: number;
  floor: number;
  counted: number;
  floorCapacity: number;
  floorSource: string;
  message: string;
  kills: { instanceId: string; taskId: string; reason: string; since: string; host: string }[];
}

async function getQueue(fx: ApiFixture): Promise<{ queue: Record<string, unknown>[]; heldUnhealthyKills?: HeldWire[] }> {
  const res = await fx.app.inject({ method: 'GET', url: '/v2/queue' });
  t.equal(res.statusCode, 200);
  return JSON.parse(res.body) as { queue: Record<string, unknown>[]; heldUnhealthyKills?: HeldWire[] };
}

t.test('no held kill: the body is Marathon\'s, without the key', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const ids = healthyApp(fx.harness, 4);
  t.same(await getQueue(fx), { queue: [] });
  nextRound(fx.harness, ids.slice(0, 1), 500);
  confirmKills(fx.harness);
  const body = await getQueue(fx);
  t.notOk('heldUnhealthyKills' in body, 'one bad instance is killed at once: nothing held');
  t.equal(body.queue.length, 1, 'its replacement waits in the queue as usual');
});

t.test('a storm: the held kills, the floor, where it comes from and why, in the order they will go', async (t) => {
  const cases: [string, Record<string, string>, Record<string, number>, number, string, RegExp][] = [
    ['default', {}, {}, 1, 'minimumHealthCapacity', /^3 unhealthy kills held: killing would leave fewer than 3 of 4 instances that have been healthy running \(3 now; kill-storm floor from upgradeStrategy\.minimumHealthCapacity 1\)$/],
    ['label', { [UNHEALTHY_KILL_FLOOR_LABEL]: '0.5' }, {}, 0.5, 'label', /^2 unhealthy kills held: .*fewer than 2 of 4 .*\(2 now; kill-storm floor from label PACER_UNHEALTHY_KILL_FLOOR 0\.5\)$/],
    ['flag', {}, { unhealthyKillFloor: 0.25 }, 0.25, 'flag', /^1 unhealthy kill held: .*fewer than 1 of 4 .*\(1 now; kill-storm floor from --unhealthy_kill_floor 0\.25\)$/],
  ];
  for (const [name, labels, options, capacity, source, message] of cases) {
    t.test(name, async (t) => {
      const fx = makeApi({ options });
      t.teardown(() => fx.app.close());
      const ids = healthyApp(fx.harness, 4, { labels });
      const dueMs = fx.harness.nowMs + 10_000;
      nextRound(fx.harness, ids, 500);
      confirmKills(fx.harness);
      const body = await getQueue(fx);
      t.equal(body.heldUnhealthyKills?.length, 1);
      const [held] = body.heldUnhealthyKills ?? [];
      const floor = Math.min(Math.ceil(4 * capacity), 3);
      t.match(held, { appId: '/storm', instances: 4, floor, counted: floor, floorCapacity: capacity, floorSource: source });
      t.match(held.message, message);
      t.same(held.kills.map((k) => k.instanceId), ids.slice(4 - floor), 'the held kills, first due first');
      for (const k of held.kills) {
        t.match(k, { taskId: new RegExp(`^${k.instanceId.replace('.', '\\.')}\\.`), reason: 'HTTP health check failed 1 times consecutively (HTTP 500)', since: new Date(dueMs).toISOString() });
        t.match(k.host, /^h\d+$/);
      }
      t.equal(body.queue.length, 1, 'the killed instances wait for relaunch in Marathon\'s queue beside it');
      nextRound(fx.harness, ids.slice(4 - floor), 200);
      t.same(await getQueue(fx).then((b) => b.heldUnhealthyKills), undefined, 'recovered: the key is gone again');
    });
  }
});

t.test('a PACER_UNHEALTHY_KILL_FLOOR label that is not a share from 0 to 1 → 422 at the label; nothing created', async (t) => {
  const fx = apiFor(t);
  const cases: [string, number][] = [['1.5', 422], ['all', 422], ['-1', 422], ['0.5', 201], ['0', 201]];
  let n = 0;
  for (const [value, status] of cases) {
    const res = await call(fx, 'POST', '/v2/apps', appBody({ id: `/a${n++}`, labels: { [UNHEALTHY_KILL_FLOOR_LABEL]: value } }));
    t.equal(res.status, status, `${value}: ${res.text}`);
    if (status === 422) {
      t.match(res.json, { message: 'Object is not valid', details: [{ path: `/labels/${UNHEALTHY_KILL_FLOOR_LABEL}`, errors: [/expected a number from 0 to 1/] }] });
    }
  }
  t.equal(fx.deps.scheduler.runSpecs().length, 2, 'only the valid ones were created');
});
