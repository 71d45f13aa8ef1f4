import t from 'tap';
import { writeFileSync } from 'node:fs';
import { as, authzApi, SEEDED, stateOf } from './authz-kit';
import { pollUntil } from '../auth/auth-kit';

const DENIED = { message: 'Not Authorized to perform this action!' };
const APP = { cmd: 'sleep 100', cpus: 0.1, mem: 16, instances: 1 };

/**
 * Group writes build a new root in the API; every run spec the new root removes, creates or
 * changes (the planner's runSpecDiff) is checked before it is submitted: one the caller may not
 * touch refuses the whole change.
 */
const REFUSED: readonly { who: 'bob' | 'lead'; what: string; url: string; method: 'PUT' | 'POST' | 'PATCH'; payload: unknown }[] = [
  { who: 'lead', what: 'a root update that changes team-a and team-b', method: 'PUT', url: '/v2/groups', payload: { id: '/', groups: [
    { id: '/team-b', apps: [{ id: '/team-b/api', ...APP, instances: 2 }] },
    { id: '/team-a', apps: [{ id: '/team-a/web', ...APP, instances: 5 }] },
  ] } },
  { who: 'lead', what: 'scaleBy at the root (every app below it)', method: 'PUT', url: '/v2/groups', payload: { scaleBy: 2 } },
  { who: 'bob', what: 'scaleBy at the root (the group itself is refused first)', method: 'PUT', url: '/v2/groups', payload: { scaleBy: 2 } },
  { who: 'bob', what: 'a bulk app update with one app of team-a', method: 'PUT', url: '/v2/apps', payload: [{ id: SEEDED.teamBApp, instances: 3 }, { id: SEEDED.teamAApp, instances: 3 }] },
  { who: 'bob', what: 'a bulk PATCH with one app of team-a', method: 'PATCH', url: '/v2/apps', payload: [{ id: SEEDED.teamBApp, instances: 3 }, { id: SEEDED.teamAApp, instances: 3 }] },
];

for (const { who, what, url, method, payload } of REFUSED) {
  t.test(`${who} may change team-b's run specs but not team-a's: ${what} is refused whole (403) and changes nothing`, async (tt) => {
    const fx = authzApi(tt);
    const before = stateOf(fx);
    const res = await fx.app.inject({ method, url, headers: as(who), payload: payload as object });
    tt.equal(res.statusCode, 403);
    tt.same(res.json(), DENIED);
    tt.equal(stateOf(fx), before, 'nothing changed');
    // (force: the seeded pending deployment of /team-a locks what a root change touches.)
    const admin = await fx.app.inject({ method, url: `${url}?force=true`, headers: as('admin'), payload: payload as object });
    tt.ok(admin.statusCode < 300, `the same request by the admin is served (${admin.statusCode})`);
    tt.not(stateOf(fx), before, 'and changes the state: the request was a real change');
  });
}

t.test('a change that touches only what the caller may change goes through', async (tt) => {
  const fx = authzApi(tt);
  const scale = await fx.app.inject({ method: 'PUT', url: '/v2/groups/team-b', headers: as('bob'), payload: { scaleBy: 2 } });
  tt.equal(scale.statusCode, 200, 'bob scales his group');
  tt.equal(fx.harness.scheduler.runSpec(SEEDED.teamBApp)?.instances, 2);
  const lead = await fx.app.inject({ method: 'PUT', url: '/v2/groups?force=true', headers: as('lead'), payload: { id: '/team-b', apps: [{ id: SEEDED.teamBApp, cmd: 'sleep 100', cpus: 0.1, mem: 16, instances: 3 }] } });
  tt.equal(lead.statusCode, 200, `lead changes team-b through the root (UpdateGroup at /, UpdateRunSpec in /team-b): ${lead.body}`);
  tt.equal(fx.harness.scheduler.runSpec(SEEDED.teamBApp)?.instances, 3);
  const bulk = await fx.app.inject({ method: 'PUT', url: '/v2/apps', headers: as('alice'), payload: [{ id: SEEDED.teamAApp, instances: 3 }] });
  tt.equal(bulk.statusCode, 200, 'alice updates her app in bulk');
  const create = await fx.app.inject({ method: 'POST', url: '/v2/apps', headers: as('alice'), payload: { id: '/team-a/new', ...APP } });
  tt.equal(create.statusCode, 201, 'alice creates below /team-a');
  const outside = await fx.app.inject({ method: 'POST', url: '/v2/apps', headers: as('alice'), payload: { id: '/team-ab/new', ...APP } });
  tt.equal(outside.statusCode, 403, 'a prefix is a path, not a string: /team-ab is not /team-a');
  const group = await fx.app.inject({ method: 'POST', url: '/v2/groups', headers: as('alice'), payload: { id: '/team-a/sub', apps: [{ id: 'x', ...APP }] } });
  tt.equal(group.statusCode, 201, `alice creates a group below /team-a by the body's id (Marathon's effectivePath): ${group.body}`);
  const relative = await fx.app.inject({ method: 'POST', url: '/v2/groups/team-a', headers: as('alice'), payload: { id: 'sub2' } });
  tt.equal(relative.statusCode, 201, 'and by a relative id under the URL\'s group');
  const elsewhere = await fx.app.inject({ method: 'POST', url: '/v2/groups/team-a', headers: as('alice'), payload: { id: '../team-b/sub' } });
  tt.equal(elsewhere.statusCode, 403, 'an id that leads out of /team-a is refused');
  tt.equal(fx.harness.scheduler.root().groups.get('/team-b')?.groups.has('/team-b/sub'), false, 'and not created');
  const kill = await fx.app.inject({ method: 'DELETE', url: `/v2/apps${SEEDED.teamAApp}`, headers: as('bob') });
  tt.equal(kill.statusCode, 403, 'bob may view team-a, not delete it');
});

t.test('POST /v2/tasks/delete kills nothing unless it may kill every task named', async (tt) => {
  const fx = authzApi(tt);
  const teamB = fx.harness.scheduler.instances(SEEDED.teamBApp)[0].tasks[0].taskId;
  const before = stateOf(fx);
  const res = await fx.app.inject({ method: 'POST', url: '/v2/tasks/delete', headers: as('bob'), payload: { ids: [teamB, fx.teamATaskId] } });
  tt.equal(res.statusCode, 403);
  tt.equal(stateOf(fx), before, 'not even team-b\'s task was killed');
});

t.test('the policy is reloaded when the file changes; a broken edit keeps the previous policy', async (tt) => {
  const fx = authzApi(tt);
  const status = async () => (await fx.app.inject({ url: `/v2/apps${SEEDED.teamBApp}`, headers: as('alice') })).statusCode;
  tt.equal(await status(), 403, 'alice may not view team-b');
  writeFileSync(fx.policyPath, 'principals:\n  alice:\n    - { path: /team-b, actions: [ViewRunSpec] }\n');
  fx.reloadPolicy();
  tt.equal(await status(), 200, 'after the reload she may');
  tt.match(fx.log.at(-1), /reloaded the authorization file .*policy\.yaml \(1 entries\)/);
  writeFileSync(fx.policyPath, 'principals:\n  alice:\n    - { path: /team-b, actions: [fly] }\n');
  fx.reloadPolicy();
  tt.equal(await status(), 200, 'a broken policy keeps the previous one');
  tt.match(fx.log.at(-1), /authorization file .*: principal "alice", entry 1: unknown action "fly".*; keeping the previous one/);
  fx.watchPolicy(20);
  // Written again at every poll, one byte longer each time: the watcher's first look at the file
  // may come after a single write, which it would then take as the file's starting state.
  let padding = 0;
  await pollUntil(async () => {
    writeFileSync(fx.policyPath, `{"principals": {"alice": []}}${' '.repeat(++padding)}`);
    return (await status()) === 403;
  }, 'the watched policy (JSON this time) to be reloaded');
  tt.pass('a change on disk is picked up without SIGHUP');
});
