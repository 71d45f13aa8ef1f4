import t from 'tap';
import { patientSignal } from '../../harness/wait';
import { apiFor } from './apps-kit';

t.test('over a real socket: create an app with fetch and read it back', async (t) => {
  const fx = apiFor(t);
  const address = await fx.app.listen({ host: '127.0.0.1', port: 0 });
  const signal = patientSignal();
  const post = await fetch(`${address}/v2/apps`, {
    method: 'POST', signal,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: '/web', cmd: 'sleep 100', cpus: 0.1, mem: 32 }),
  });
  t.equal(post.status, 201);
  t.type(post.headers.get('marathon-deployment-id'), 'string');
  t.match(post.headers.get('location'), /\/web$/);
  t.match(await post.json(), { id: '/web', instances: 1 });
  const get = await fetch(`${address}/v2/apps//web`, { signal });
  t.equal(get.status, 200);
  t.equal(get.headers.get('cache-control'), 'no-cache, no-store, must-revalidate');
  t.match(await get.json(), { app: { id: '/web', cmd: 'sleep 100', tasks: [] } });
});
