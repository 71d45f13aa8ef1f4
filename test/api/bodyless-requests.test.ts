import t, { type Test } from 'tap';
import type { ApiFixture } from './api-fixture';
import { apiFor, call, created, runAll, type Json } from './apps/apps-kit';

/**
 * Issue 10.1: client libraries (python `marathon`, go-marathon) send `Content-Type:
 * application/json` on every call, DELETE and `/restart` included, with no body or
 * `Content-Length: 0`. Only a route that needs a body may answer fact 6's 400
 * "Please specify data in JSON format"; the others do their work.
 */

type Method = 'DELETE' | 'POST' | 'PUT' | 'PATCH';

/** A request with the JSON content type and no body: no payload, or an explicit `Content-Length: 0`. */
async function bodyless(fx: ApiFixture, method: Method, url: string, contentLength: boolean): Promise<{ status: number; json: Json }> {
  const res = await fx.app.inject({
    method, url,
    headers: { 'content-type': 'application/json', ...(contentLength ? { 'content-length': '0' } : {}) },
  });
  return { status: res.statusCode, json: res.body === '' ? {} : JSON.parse(res.body) as Json };
}

/** One app running (tasks to kill), one waiting for offers (a queue delay, a running deployment), one pod, one group. */
async function world(t: Test): Promise<{ fx: ApiFixture; taskId: string; deploymentId: string }> {
  const fx = apiFor(t);
  await created(t, fx, { id: '/web', cmd: 'sleep 100', cpus: 0.1, mem: 32, instances: 2 });
  await created(t, fx, { id: '/g/api', cmd: 'sleep 100', cpus: 0.1, mem: 32 });
  runAll(fx);
  const pod = await call(fx, 'POST', '/v2/pods', {
    id: '/p', containers: [{ name: 'c', resources: { cpus: 0.1, mem: 32 }, exec: { command: { shell: 'sleep 1000' } } }],
  });
  t.equal(pod.status, 201, 'pod created');
  const waiting = await call(fx, 'POST', '/v2/apps', { id: '/waits', cmd: 'sleep 100', cpus: 1000, mem: 32 });
  t.equal(waiting.status, 201, 'an app that no offer fits: its deployment keeps running');
  const tasks = await call(fx, 'GET', '/v2/apps/web/tasks');
  const taskId = String((tasks.json.tasks as Json[])[0]?.id);
  return { fx, taskId, deploymentId: String(waiting.headers['marathon-deployment-id']) };
}

for (const contentLength of [false, true]) {
  const how = contentLength ? 'Content-Length: 0' : 'no body';
  t.test(`routes that need no body do their work (${how}, Content-Type: application/json)`, async (t) => {
    const { fx, taskId, deploymentId } = await world(t);
    const cases: { method: Method; url: string; status: number }[] = [
      { method: 'POST', url: '/v2/apps/web/restart', status: 200 },
      { method: 'DELETE', url: `/v2/apps/web/tasks/${taskId}?force=true`, status: 200 },
      { method: 'DELETE', url: '/v2/apps/web/tasks?scale=true&force=true', status: 200 },
      { method: 'DELETE', url: '/v2/queue/waits/delay', status: 204 },
      { method: 'DELETE', url: `/v2/deployments/${deploymentId}?force=true`, status: 202 },
      { method: 'DELETE', url: '/v2/apps/waits', status: 200 },
      { method: 'DELETE', url: '/v2/apps/web', status: 200 },
      { method: 'DELETE', url: '/v2/pods/p?force=true', status: 202 },
      { method: 'DELETE', url: '/v2/groups/g?force=true', status: 200 },
      { method: 'DELETE', url: '/v2/groups?force=true', status: 200 },
    ];
    for (const c of cases) {
      const res = await bodyless(fx, c.method, c.url, contentLength);
      t.equal(res.status, c.status, `${c.method} ${c.url}: ${JSON.stringify(res.json)}`);
    }
  });

  t.test(`routes that need a body still answer fact 6's 400 (${how})`, async (t) => {
    const { fx } = await world(t);
    const cases: { method: Method; url: string }[] = [
      { method: 'POST', url: '/v2/apps' },
      { method: 'PUT', url: '/v2/apps/web' },
      { method: 'PATCH', url: '/v2/apps/web' },
      { method: 'PUT', url: '/v2/apps' },
      { method: 'POST', url: '/v2/groups' },
      { method: 'PUT', url: '/v2/groups/g' },
      { method: 'PATCH', url: '/v2/groups/g' },
      { method: 'POST', url: '/v2/pods' },
      { method: 'PUT', url: '/v2/pods/p' },
      { method: 'DELETE', url: '/v2/pods/p::instances' },
      { method: 'POST', url: '/v2/tasks/delete' },
    ];
    for (const c of cases) {
      const res = await bodyless(fx, c.method, c.url, contentLength);
      t.equal(res.status, 400, `${c.method} ${c.url}`);
      t.match(res.json, { message: 'Please specify data in JSON format' }, `${c.method} ${c.url}`);
    }
  });
}
