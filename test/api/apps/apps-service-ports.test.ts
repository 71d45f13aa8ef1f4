import t from 'tap';
import { makeOffer } from '../../builders/cluster-builders';
import { makeApi } from '../api-fixture';
import { apiFor, appBody, call, created, type Json, runAll, tick } from './apps-kit';

/**
 * Service ports through the REST API (Marathon's `AssignDynamicServiceLogic`, run on every root
 * change): `port: 0` / `servicePort: 0` get a cluster-unique port from `--local_port_min` up, which
 * the app's JSON, `/v2/tasks` `servicePorts` and the load-balancer text view show.
 */

function portsOf(app: Json): unknown[] {
  return (app.portDefinitions as Json[]).map((d) => d.port);
}

async function getApp(fx: ReturnType<typeof apiFor>, id: string): Promise<Json> {
  return (await call(fx, 'GET', `/v2/apps${id}`)).json.app as Json;
}

t.test('POST: dynamic service ports are assigned lowest first and unique across apps; the 201 body shows 0 as Marathon\'s does (fact 19), GET the assigned port', async (t) => {
  const fx = apiFor(t);
  const a = await created(t, fx, appBody({ id: '/a', portDefinitions: [{ port: 0, name: 'http' }, { port: 0 }] }));
  t.same(portsOf(a.json), [0, 0], 'the 201 body: the request as normalized, before assignment');
  t.match(a.json.portDefinitions, [{ name: 'http', protocol: 'tcp' }, { protocol: 'tcp' }], 'names and protocols are kept');
  t.same(portsOf(await getApp(fx, '/a')), [10_000, 10_001], 'GET: assigned');
  await created(t, fx, appBody({ id: '/b' }));
  t.same(portsOf(await getApp(fx, '/b')), [10_002], 'the default port definition');
  const c = await created(t, fx, appBody({ id: '/c', portDefinitions: [{ port: 10_003 }, { port: 0 }] }));
  t.same(portsOf(c.json), [10_003, 0], 'the 201 body keeps the fixed port');
  t.same(portsOf(await getApp(fx, '/c')), [10_003, 10_004], 'a fixed port is kept and skipped');
});

t.test('updates keep the app\'s ports, also when the update asks for 0 again (no restart then)', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ id: '/a' }));
  await created(t, fx, appBody({ id: '/b' }));
  runAll(fx);
  const before = await getApp(fx, '/a');
  tick(fx);
  t.equal((await call(fx, 'PUT', '/v2/apps/a', { instances: 2 })).status, 200);
  t.same(portsOf(await getApp(fx, '/a')), [10_000], 'a scale');
  runAll(fx);
  tick(fx);
  t.equal((await call(fx, 'PUT', '/v2/apps/a', { cmd: 'sleep 200', portDefinitions: [{ port: 0 }] })).status, 200);
  t.same(portsOf(await getApp(fx, '/a')), [10_000], 'a config change that asks for a dynamic port again');
  runAll(fx);
  tick(fx);
  const settled = await getApp(fx, '/a');
  const again = await call(fx, 'PUT', '/v2/apps/a', { portDefinitions: [{ port: 0 }] });
  t.equal(again.status, 200);
  const after = await getApp(fx, '/a');
  t.same(portsOf(after), [10_000]);
  t.equal(after.version, settled.version, 'nothing else changed: same version, nothing restarted');
  t.not(settled.version, before.version);
  t.same(portsOf(await getApp(fx, '/b')), [10_001], 'the other app is untouched');
});

t.test('container port mappings: servicePort 0 is assigned too', async (t) => {
  const fx = apiFor(t);
  const res = await created(t, fx, appBody({
    id: '/bridged', networks: [{ mode: 'container/bridge' }],
    container: { type: 'DOCKER', docker: { image: 'nginx' }, portMappings: [{ containerPort: 80 }, { containerPort: 81, servicePort: 10_500 }] },
  }));
  t.match((res.json.container as Json).portMappings, [{ containerPort: 80, servicePort: 0 }, { containerPort: 81, servicePort: 10_500 }], 'the 201 body: as requested (fact 19)');
  const stored = await getApp(fx, '/bridged');
  t.match((stored.container as Json).portMappings, [{ containerPort: 80, servicePort: 10_000 }, { containerPort: 81, servicePort: 10_500 }], 'GET: assigned');
});

t.test('group writes go through the same rule', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'POST', '/v2/groups', { id: '/g', apps: [appBody({ id: '/g/x' }), appBody({ id: '/g/y', portDefinitions: [{ port: 0 }, { port: 0 }] })] });
  t.equal(res.status, 201, res.text);
  t.same(portsOf(await getApp(fx, '/g/x')), [10_000]);
  t.same(portsOf(await getApp(fx, '/g/y')), [10_001, 10_002]);
  const bulk = await call(fx, 'PUT', '/v2/apps', [appBody({ id: '/z' })]);
  t.equal(bulk.status, 200, bulk.text);
  t.same(portsOf(await getApp(fx, '/z')), [10_003], 'bulk app updates too');
  t.same(fx.apiEvents.map((e) => portsOf(e.appDefinition as Json)), [[10_003]], 'api_post_event carries the stored definition');
});

t.test('/v2/tasks servicePorts and the text/plain load-balancer view show the assigned ports', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ id: '/web', portDefinitions: [{ port: 0 }, { port: 0 }] }));
  const [l] = runAll(fx, makeOffer({ agent: { hostname: 'h1' } }));
  const tasks = (await call(fx, 'GET', '/v2/tasks')).json.tasks as Json[];
  t.same(tasks[0].servicePorts, [10_000, 10_001]);
  const text = await fx.app.inject({ method: 'GET', url: '/v2/tasks', headers: { accept: 'text/plain' } });
  t.same(text.body.split('\n'), [`web\t10000\th1:${l.hostPorts[0]}\t`, `web\t10001\th1:${l.hostPorts[1]}\t`, '']);
});

t.test('requirePorts: the assigned service port is the host port the task gets', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ id: '/fixed', requirePorts: true, portDefinitions: [{ port: 0 }] }));
  t.same(portsOf(await getApp(fx, '/fixed')), [10_000]);
  t.same(runAll(fx, makeOffer({ ports: [[31_000, 32_000]] })), [], 'no offer has port 10000');
  const [l] = runAll(fx, makeOffer({ ports: [[9_990, 10_010]] }));
  t.same(l.hostPorts, [10_000]);
});

t.test('an exhausted range → 422 with Marathon\'s message; nothing is created', async (t) => {
  const fx = makeApi({ options: { localPortMin: 10_000, localPortMax: 10_001 } });
  t.teardown(() => fx.app.close());
  await created(t, fx, appBody({ id: '/a', portDefinitions: [{ port: 0 }, { port: 0 }] }));
  const res = await call(fx, 'POST', '/v2/apps', appBody({ id: '/b' }));
  t.equal(res.status, 422, res.text);
  t.strictSame(res.json, { message: 'Object is not valid', details: [{ path: '/', errors: ['All ports in the range [10000-10001) are already in use'] }] });
  t.equal((await call(fx, 'GET', '/v2/apps/b')).status, 404);
});
