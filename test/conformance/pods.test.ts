import t from 'tap';
import { app, behaviour, MARATHON, pacer } from './conformance-kit';

// Marathon's PodsResource.create answers `Response.created(new URI(podDef.id.toString))`, as
// AppsResource.create does for an app: Jersey (2.27 in Marathon 1.11) resolves the relative URI
// against the application's base URI, so both are `http://<host>/<id>` (fact 17), never
// `/v2/pods/<id>`.
t.test(behaviour('POST /v2/pods → 201 with Location http://<host>/<pod id>, the same form as an app\'s (fact 17)', MARATHON.pods), async (t) => {
  const p = await pacer(t);
  const created = await p.call('POST', '/v2/apps', app('/foo'));
  t.equal(created.headers.get('location'), `${p.base}/foo`, 'an app');
  const res = await p.call('POST', '/v2/pods', {
    id: '/pp',
    containers: [{ name: 'c', exec: { command: { shell: 'sleep 1000' } }, resources: { cpus: 0.1, mem: 32 } }],
  });
  t.equal(res.status, 201);
  t.equal(res.headers.get('location'), `${p.base}/pp`, 'a pod');
});
