import t from 'tap';
import { buildServer } from '../../../src/api/server';
import { makeApi } from '../api-fixture';

/**
 * `/v2/info` `elected` and `leader` follow this pacer's leadership (Marathon's
 * `electionService.isLeader` / `leaderHostPort`), and `X-Marathon-Leader` names the same leader:
 * the one pacer without HA always leads; with HA (`leaderAddress`, src/ha/start-ha.ts) it leads
 * exactly while the leader it knows is its own advertised address. test/ha/ha-info.test.ts checks
 * the same over real pacers on ZooKeeper.
 */

interface Case {
  readonly name: string;
  /** `deps.leaderAddress`: absent = no HA. */
  readonly leaderAddress?: () => string | undefined;
  readonly elected: boolean;
  readonly leader: string | null;
  readonly header: string | undefined;
}

const SELF = '127.0.0.1:8080';
const OTHER = '10.0.0.2:8080';

const cases: readonly Case[] = [
  { name: 'without HA: always the leader', elected: true, leader: SELF, header: `http://${SELF}` },
  { name: 'with HA, leading', leaderAddress: () => SELF, elected: true, leader: SELF, header: `http://${SELF}` },
  { name: 'with HA, standing by another leader', leaderAddress: () => OTHER, elected: false, leader: OTHER, header: `http://${OTHER}` },
  { name: 'with HA, no leader known', leaderAddress: () => undefined, elected: false, leader: null, header: undefined },
];

for (const c of cases) {
  t.test(`GET /v2/info elected and leader: ${c.name}`, async (t) => {
    const fx = makeApi();
    t.teardown(() => fx.app.close());
    const deps = { ...fx.deps, ...(c.leaderAddress === undefined ? {} : { leaderAddress: c.leaderAddress }) };
    const app = buildServer({ deps, stream: { close: () => undefined } });
    t.teardown(() => app.close());
    const res = await app.inject({ method: 'GET', url: '/v2/info' });
    t.equal(res.statusCode, 200);
    const info = JSON.parse(res.body) as { elected: unknown; leader: unknown };
    t.equal(info.elected, c.elected, 'elected');
    t.equal(info.leader, c.leader, 'leader');
    t.equal(res.headers['x-marathon-leader'], c.header, 'X-Marathon-Leader names the same leader');
  });
}
