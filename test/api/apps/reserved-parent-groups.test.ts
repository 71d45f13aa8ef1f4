import t from 'tap';
import { reservedGroupMessage } from '../../../src/scheduler/groups/path-id';
import { patientSignal } from '../../harness/wait';
import { stateSnapshot } from '../../fuzz/state-snapshot';
import { podBody } from '../pods/pod-api-builders';
import { apiFor, appBody, call, type Json } from './apps-kit';

// Marathon refuses a reserved keyword (restart, tasks, versions) only as an id's last segment, so
// `/q/tasks/a` made the group `/q/tasks`: a group id the group API refuses (PUT /v2/groups/q/tasks
// answered the reserved-keyword 422) and, for `versions`, cannot show (GET /v2/groups/versions is
// the root's version list). pacer refuses any change that would create such a group, for apps,
// pods and groups, with Marathon's 422 shape at /id (src/scheduler/groups/reserved-new-group.ts).

const refused = (group: string): Json => ({ message: 'Object is not valid', details: [{ path: '/id', errors: [reservedGroupMessage(group)] }] });

t.test('an id whose new parent group ends in a reserved keyword is a 422, changing nothing', async (t) => {
  const cases: [string, 'POST' | 'PUT' | 'PATCH', string, unknown, Json][] = [
    ['POST /v2/apps /q/tasks/a', 'POST', '/v2/apps', appBody({ id: '/q/tasks/a' }), refused('/q/tasks')],
    ['POST /v2/apps /versions/app', 'POST', '/v2/apps', appBody({ id: '/versions/app' }), refused('/versions')],
    ['POST /v2/apps /restart/x', 'POST', '/v2/apps', appBody({ id: '/restart/x' }), refused('/restart')],
    ['POST /v2/apps /a/versions/b/c', 'POST', '/v2/apps', appBody({ id: '/a/versions/b/c' }), refused('/a/versions')],
    ['PUT /v2/apps/q/tasks/a (creates)', 'PUT', '/v2/apps/q/tasks/a', appBody({}), refused('/q/tasks')],
    ['PUT /v2/apps (bulk)', 'PUT', '/v2/apps', [appBody({ id: '/ok' }), appBody({ id: '/tasks/b' })], refused('/tasks')],
    ['POST /v2/pods /versions/p', 'POST', '/v2/pods', podBody({ id: '/versions/p' }), refused('/versions')],
    ['PUT /v2/pods/q/tasks/p (creates)', 'PUT', '/v2/pods/q/tasks/p', podBody({ id: '/q/tasks/p' }), refused('/q/tasks')],
    ['POST /v2/groups /tasks/g', 'POST', '/v2/groups', { id: '/tasks/g' }, refused('/tasks')],
    ['PUT /v2/groups/versions/g', 'PUT', '/v2/groups/versions/g', { id: '/versions/g' }, refused('/versions')],
    ['POST /v2/groups with a nested app', 'POST', '/v2/groups', { id: '/x/restart/g', apps: [appBody({ id: 'a' })] }, refused('/x/restart')],
  ];
  for (const [name, method, url, body, json] of cases) {
    const fx = apiFor(t);
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await call(fx, method, url, body);
    t.equal(res.status, 422, `${name}: status (${res.text.slice(0, 200)})`);
    t.same(res.json, json, `${name}: body`);
    t.equal(stateSnapshot(fx.harness.scheduler), before, `${name}: nothing changed`);
  }
});

t.test('a reserved keyword is still fine inside a segment, and ids Marathon takes still work', async (t) => {
  const fx = apiFor(t);
  for (const id of ['/tasks-x/a', '/q/my-versions/a', '/restarts/x', '/a/b']) {
    const res = await call(fx, 'POST', '/v2/apps', appBody({ id }));
    t.equal(res.status, 201, `${id} (${res.text.slice(0, 160)})`);
    t.equal((await call(fx, 'GET', `/v2/apps${id}`)).status, 200, `GET /v2/apps${id}`);
  }
  // Every group those made answers at its own URL.
  for (const group of ['/tasks-x', '/q/my-versions', '/restarts', '/a']) {
    const res = await call(fx, 'GET', `/v2/groups${group}`);
    t.equal(res.status, 200, `GET /v2/groups${group}`);
    t.equal(res.json?.id, group);
  }
});

t.test('over a real socket: POST /v2/apps {"id":"/q/tasks/a"} is a 422 and no group /q/tasks appears', async (t) => {
  const fx = apiFor(t);
  const address = await fx.app.listen({ host: '127.0.0.1', port: 0 });
  const signal = patientSignal();
  const post = await fetch(`${address}/v2/apps`, {
    method: 'POST', signal, headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: '/q/tasks/a', cmd: 'sleep 100', cpus: 0.1, mem: 32 }),
  });
  t.equal(post.status, 422);
  t.same(await post.json(), refused('/q/tasks'));
  t.equal((await fetch(`${address}/v2/groups/q/tasks`, { signal })).status, 404);
  t.equal((await fetch(`${address}/v2/apps/q/tasks/a`, { signal })).status, 404);
});
