import t from 'tap';
import { makePod } from '../../builders/run-spec-builders';
import { START_MS } from '../../harness/core-harness';
import { apiFor, appBody, call, created, type Json, runAll } from './apps-kit';
import { makeApi } from '../api-fixture';

const NOW = '2026-01-01T00:00:00.000Z';

t.test('POST /v2/apps answers 201 with Location, Marathon-Deployment-Id and the app with its defaults (facts 17, 18)', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'POST', '/v2/apps', { id: '/foo', cmd: 'sleep 100' });
  t.equal(res.status, 201);
  const deploymentId = res.headers['marathon-deployment-id'];
  t.type(deploymentId, 'string');
  t.match(String(res.headers.location), /\/foo$/, 'Location ends with the app id');
  t.match(res.json, {
    id: '/foo', cmd: 'sleep 100', instances: 1, cpus: 1, mem: 128, disk: 0, gpus: 0, executor: '',
    backoffSeconds: 1, backoffFactor: 1.15, maxLaunchDelaySeconds: 300, labels: {}, requirePorts: false,
    // Marathon's answer shows the request's port 0 (fact 19); GET shows the assigned service port.
    networks: [{ mode: 'host' }], portDefinitions: [{ port: 0, protocol: 'tcp', name: 'default' }],
    upgradeStrategy: { minimumHealthCapacity: 1, maximumOverCapacity: 1 }, killSelection: 'YOUNGEST_FIRST',
    unreachableStrategy: { inactiveAfterSeconds: 0, expungeAfterSeconds: 0 }, role: '*', version: NOW,
    tasksStaged: 0, tasksRunning: 0, tasksHealthy: 0, tasksUnhealthy: 0,
  });
  t.strictSame(res.json.deployments, [{ id: deploymentId }], 'deployments names the deployment of the header');
  for (const key of ['ports', 'uris', 'ipAddress', 'tasks']) t.notOk(key in res.json, `${key} is not written`);
  t.notOk(Object.values(res.json).includes(null), 'no null values');
  t.ok(fx.deps.scheduler.deployments().some((d) => d.deployment.plan.id === deploymentId), 'the deployment runs');
});

t.test('the 201 body is exactly fact 18: Marathon 1.11\'s app writer leaves out empty and unset fields and versionInfo', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'POST', '/v2/apps', { id: '/foo', cmd: 'sleep 100' });
  t.equal(res.status, 201);
  t.same(res.json, {
    id: '/foo', cmd: 'sleep 100', instances: 1, cpus: 1, mem: 128, disk: 0, gpus: 0, executor: '',
    backoffSeconds: 1, backoffFactor: 1.15, maxLaunchDelaySeconds: 300, labels: {}, requirePorts: false,
    networks: [{ mode: 'host' }], portDefinitions: [{ port: 0, protocol: 'tcp', name: 'default' }],
    upgradeStrategy: { minimumHealthCapacity: 1, maximumOverCapacity: 1 }, killSelection: 'YOUNGEST_FIRST',
    unreachableStrategy: { inactiveAfterSeconds: 0, expungeAfterSeconds: 0 }, role: '*', version: NOW,
    tasksStaged: 0, tasksRunning: 0, tasksHealthy: 0, tasksUnhealthy: 0,
    deployments: [{ id: res.headers['marathon-deployment-id'] }],
  });
});

/** RAML omitEmpty fields of app.raml, and acceptedResourceRoles (written only when non-empty by AppConversion.appWriter). */
const OMITTED_WHEN_EMPTY = ['args', 'constraints', 'dependencies', 'env', 'fetch', 'healthChecks', 'readinessChecks', 'secrets'];

t.test('empty collections sent explicitly are left out too, in every app view (app.raml omitEmpty)', async (t) => {
  const fx = apiFor(t);
  const body = appBody({
    args: [], constraints: [], dependencies: [], env: {}, fetch: [], healthChecks: [], secrets: {}, user: null,
    portDefinitions: [{ port: 0, name: 'http', labels: {} }], networks: [{ mode: 'host', labels: {} }],
  });
  const res = await call(fx, 'POST', '/v2/apps', body);
  t.equal(res.status, 201, res.text);
  const views: [string, Json][] = [
    ['POST 201', res.json],
    ['GET /v2/apps/foo', (await call(fx, 'GET', '/v2/apps/foo')).json.app as Json],
    ['GET /v2/apps', ((await call(fx, 'GET', '/v2/apps')).json.apps as Json[])[0]],
    ['GET /v2/groups', ((await call(fx, 'GET', '/v2/groups')).json.apps as Json[])[0]],
    ['GET /v2/queue', ((await call(fx, 'GET', '/v2/queue')).json.queue as Json[])[0].app as Json],
    ['api_post_event', fx.apiEvents[0].appDefinition as Json],
  ];
  for (const [view, app] of views) {
    for (const key of OMITTED_WHEN_EMPTY) t.notOk(key in app, `${view}: no ${key}`);
    t.notOk('user' in app, `${view}: an unset scalar is left out, not null`);
    t.strictSame(app.labels, {}, `${view}: labels is always written`);
    // The 201 body shows the request's port 0 (fact 19); stored views the assigned service port.
    const port = view === 'POST 201' ? 0 : 10_000;
    t.strictSame(app.portDefinitions, [{ port, protocol: 'tcp', name: 'http' }], `${view}: port definition labels left out when empty`);
    t.strictSame(app.networks, [{ mode: 'host' }], `${view}: network labels left out when empty`);
  }
  t.notOk('versionInfo' in res.json, 'the create response has no versionInfo (the app is not versioned yet)');
  t.notOk('versionInfo' in views[5][1], 'nor the create\'s api_post_event');
  for (const [view, app] of views.slice(1, 5)) t.ok('versionInfo' in app, `${view}: a stored app has versionInfo`);
});

t.test('non-empty collections are written', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'POST', '/v2/apps', appBody({
    args: undefined, constraints: [['hostname', 'UNIQUE']], env: { A: 'b' }, healthChecks: [{ protocol: 'TCP' }], acceptedResourceRoles: ['*'],
    portDefinitions: [{ port: 0, name: 'http', labels: { VIP_0: '/web:80' } }],
  }));
  t.equal(res.status, 201, res.text);
  t.match(res.json, {
    constraints: [['hostname', 'UNIQUE']], env: { A: 'b' }, healthChecks: [{ protocol: 'TCP', portIndex: 0 }], acceptedResourceRoles: ['*'],
    portDefinitions: [{ port: 0, name: 'http', labels: { VIP_0: '/web:80' } }],
  });
});

t.test('after creation GET shows versionInfo equal to version (fact 20)', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody());
  const res = await call(fx, 'GET', '/v2/apps/foo');
  t.equal(res.status, 200);
  const app = res.json.app as Json;
  t.equal(app.version, NOW);
  t.strictSame(app.versionInfo, { lastScalingAt: NOW, lastConfigChangeAt: NOW });
});

t.test('a relative id is made absolute; relative dependencies resolve against the parent (fact 21)', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ id: 'db' }));
  const res = await call(fx, 'POST', '/v2/apps', appBody({ id: 'prod//web/', dependencies: ['../db', 'cache'] }));
  t.equal(res.status, 201, res.text);
  t.equal(res.json.id, '/prod/web');
  t.strictSame(res.json.dependencies, ['/db', '/prod/cache']);
  t.equal((await call(fx, 'GET', '/v2/apps/db')).status, 200, '`db` became /db');
});

t.test('POST of an existing id → 409 whatever force says (fact 22)', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody());
  for (const url of ['/v2/apps', '/v2/apps?force=true']) {
    const res = await call(fx, 'POST', url, appBody({ cmd: 'other' }));
    t.equal(res.status, 409, url);
    t.strictSame(res.json, { message: 'An app with id [/foo] already exists.' });
  }
});

/** [name, body, expected path, expected error] for shape errors (fact 4: 422 "Invalid JSON"). */
const SHAPE_ERRORS: [string, Json, string, string][] = [
  ['missing id (fact 25)', { cmd: 'x' }, '/id', 'error.path.missing'],
  ['numeric id (fact 25)', { id: 123, cmd: 'x' }, '/id', 'error.expected.jsstring'],
  ['uppercase id (fact 26)', { id: '/Foo', cmd: 'x' }, '/id', 'error.pattern'],
  ['underscore id (fact 26)', { id: '/foo_bar', cmd: 'x' }, '/id', 'error.pattern'],
  ['leading dash (fact 26)', { id: '/-foo', cmd: 'x' }, '/id', 'error.pattern'],
  ['negative instances (fact 24)', { id: '/foo', cmd: 'x', instances: -1 }, '/instances', 'error.min'],
  ['fractional instances (fact 24)', { id: '/foo', cmd: 'x', instances: 0.1 }, '/instances', 'error.expected.int'],
  ['negative cpus (fact 24)', { id: '/foo', cmd: 'x', cpus: -1 }, '/cpus', 'error.min'],
  ['negative mem (fact 24)', { id: '/foo', cmd: 'x', mem: -128 }, '/mem', 'error.min'],
  ['string mem', { id: '/foo', cmd: 'x', mem: 'lots' }, '/mem', 'error.expected.jsnumber'],
  ['empty cmd (fact 118)', { id: '/foo', cmd: '' }, '/cmd', 'error.minLength'],
  ['upgradeStrategy above 1 (fact 27)', { id: '/foo', cmd: 'x', upgradeStrategy: { minimumHealthCapacity: 1.2, maximumOverCapacity: 0 } },
    '/upgradeStrategy/minimumHealthCapacity', 'error.max'],
  // Both fields are required when upgradeStrategy is given (app.raml; until 2026-12-03 a missing one took its default).
  ['upgradeStrategy without maximumOverCapacity (fact 27)', { id: '/foo', cmd: 'x', upgradeStrategy: { minimumHealthCapacity: 0.5 } },
    '/upgradeStrategy/maximumOverCapacity', 'error.path.missing'],
  ['upgradeStrategy without minimumHealthCapacity (fact 27)', { id: '/foo', cmd: 'x', upgradeStrategy: { maximumOverCapacity: 0 } },
    '/upgradeStrategy/minimumHealthCapacity', 'error.path.missing'],
  ['short constraint (fact 32)', { id: '/foo', cmd: 'x', constraints: [['hostname']] }, '/constraints(0)', 'error.minLength'],
  ['long constraint (fact 32)', { id: '/foo', cmd: 'x', constraints: [['a', 'b', 'c', 'd']] }, '/constraints(0)', 'error.maxLength'],
  ['health check portIndex type', { id: '/foo', cmd: 'x', healthChecks: [{ portIndex: 'zero' }] }, '/healthChecks(0)/portIndex', 'error.expected.jsnumber'],
  ['label value type', { id: '/foo', cmd: 'x', labels: { tier: 1 } }, '/labels/tier', 'error.expected.jsstring'],
  ['env value type', { id: '/foo', cmd: 'x', env: { A: 1 } }, '/env/A', 'error.expected.jsstring'],
  ['unknown unreachableStrategy string', { id: '/foo', cmd: 'x', unreachableStrategy: 'never' }, '/unreachableStrategy', 'error.unknown.enum.literal'],
  ['fetch without uri', { id: '/foo', cmd: 'x', fetch: [{ extract: true }] }, '/fetch(0)/uri', 'error.path.missing'],
  ['requirePorts type', { id: '/foo', cmd: 'x', requirePorts: 'yes' }, '/requirePorts', 'error.expected.jsboolean'],
  ['a port out of range', { id: '/foo', cmd: 'x', portDefinitions: [{ port: 70000 }] }, '/portDefinitions(0)/port', 'error.max'],
  ['empty role', { id: '/foo', cmd: 'x', role: '' }, '/role', 'error.minLength'],
];

t.test('shape errors → 422 "Invalid JSON" with play-json keys at Marathon paths (facts 4, 24–27, 32, 118)', async (t) => {
  const fx = apiFor(t);
  for (const [name, body, path, error] of SHAPE_ERRORS) {
    const res = await call(fx, 'POST', '/v2/apps', body);
    t.equal(res.status, 422, name);
    t.equal(res.json.message, 'Invalid JSON', name);
    t.match(res.json.details, [{ path, errors: [error] }], name);
  }
  t.equal(fx.deps.scheduler.runSpecs().length, 0, 'nothing was created');
});

t.test('all shape errors of a body are reported at once, one entry per path', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'POST', '/v2/apps', { id: '/Foo', instances: -1, cpus: 'x' });
  t.equal(res.status, 422);
  const paths = (res.json.details as { path: string }[]).map((d) => d.path).sort();
  t.strictSame(paths, ['/cpus', '/id', '/instances']);
});

t.test('null optional fields count as absent', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'POST', '/v2/apps', appBody({ container: null, user: null, labels: null }));
  t.equal(res.status, 201, res.text);
  t.notOk('container' in res.json);
  t.strictSame(res.json.labels, {});
});

/** [name, body, path, error] for semantic errors (fact 3: 422 "Object is not valid"). */
const SEMANTIC_ERRORS: [string, Json, string, string][] = [
  ['no cmd, args or container (fact 23)', { id: '/foo' }, '/', "AppDefinition must either contain one of 'cmd' or 'args', and/or a 'container'."],
  ['cmd and args (fact 23)', { id: '/foo', cmd: 'x', args: ['y'] }, '/', "AppDefinition must either contain one of 'cmd' or 'args', and/or a 'container'."],
  ['reserved last segment (fact 26)', { id: '/foo/restart', cmd: 'x' }, '/id', 'must not end with any of the following reserved keywords: restart, tasks, versions, ., ..'],
  ['portIndex out of range (fact 28)', { id: '/foo', cmd: 'x', healthChecks: [{ protocol: 'HTTP', portIndex: 1 }] }, '/healthChecks(0)',
    'Health check port indices must address an element of the ports array or container port mappings.'],
  ['role outside the root group roles (fact 109)', { id: '/foo', cmd: 'x', role: 'foo' }, '/role', 'got foo, expected one of: [*]'],
  ['acceptedResourceRoles with another role (fact 113)', { id: '/foo', cmd: 'x', acceptedResourceRoles: ['foo'] }, '/acceptedResourceRoles',
    'acceptedResourceRoles can only contain *'],
];

t.test('semantic errors → 422 "Object is not valid" with Marathon paths (facts 3, 23, 26, 28, 109, 113)', async (t) => {
  const fx = apiFor(t);
  for (const [name, body, path, error] of SEMANTIC_ERRORS) {
    const res = await call(fx, 'POST', '/v2/apps', body);
    t.equal(res.status, 422, name);
    t.equal(res.json.message, 'Object is not valid', name);
    t.match(res.json.details, [{ path, errors: [error] }], name);
  }
});

t.test('broken JSON → 400 with the parser text; empty body → 400 (facts 5, 6)', async (t) => {
  const fx = apiFor(t);
  const broken = await call(fx, 'POST', '/v2/apps', '{"id":"/test"');
  t.equal(broken.status, 400);
  t.equal(broken.json.message, 'Invalid JSON');
  t.type(broken.json.details, 'string');
  const empty = await call(fx, 'POST', '/v2/apps', '');
  t.equal(empty.status, 400);
  t.equal(empty.json.message, 'Please specify data in JSON format');
  const none = await fx.app.inject({ method: 'POST', url: '/v2/apps' });
  t.equal(none.statusCode, 400, 'no body at all');
});

t.test('roles of apps in groups (facts 110–112)', async (t) => {
  t.test('without enforcement: default or group role; no role → default', async (t) => {
    const fx = apiFor(t);
    t.equal((await call(fx, 'POST', '/v2/apps', appBody({ id: '/dev/a', role: 'dev' }))).json.role, 'dev');
    t.equal((await call(fx, 'POST', '/v2/apps', appBody({ id: '/dev/b' }))).json.role, '*');
    const bad = await call(fx, 'POST', '/v2/apps', appBody({ id: '/dev/c', role: 'foo' }));
    t.equal(bad.status, 422);
    t.match(bad.json.details, [{ path: '/role', errors: [/^got foo, expected one of: \[/] }]);
  });
  t.test('with --new_group_enforce_role top, a new top-level group enforces its role', async (t) => {
    const fx = apiFor(t, { newGroupEnforceRole: 'top' });
    const res = await call(fx, 'POST', '/v2/apps', appBody({ id: '/dev/apps/sleeper' }));
    t.equal(res.status, 201, res.text);
    t.equal(res.json.role, 'dev');
    const star = await call(fx, 'POST', '/v2/apps', appBody({ id: '/dev/other', role: '*' }));
    t.equal(star.status, 422);
    t.match(star.json.details, [{ path: '/role', errors: ['got *, expected one of: [dev]'] }]);
  });
});

t.test('an app may not take the id of a group with apps or of a pod (fact 76): 422 from the core', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ id: '/g/a' }));
  fx.harness.put(makePod({ id: '/p' }));
  const cases: [string, string, unknown, string][] = [
    ['POST over a group', '/v2/apps', appBody({ id: '/g' }), 'Groups and Applications may not have the same identifier.'],
    ['PUT creating over a group', '/v2/apps/g', appBody({ id: '/g' }), 'Groups and Applications may not have the same identifier.'],
    ['POST over a pod', '/v2/apps', appBody({ id: '/p' }), 'Applications and Pods may not share the same id'],
    ['PUT creating over a pod', '/v2/apps/p', appBody({ id: '/p' }), 'Applications and Pods may not share the same id'],
  ];
  for (const [name, url, body, message] of cases) {
    const res = await call(fx, url === '/v2/apps' ? 'POST' : 'PUT', url, body);
    t.equal(res.status, 422, name);
    t.same(res.json, { message: 'Object is not valid', details: [{ path: '/', errors: [message] }] }, name);
  }
  t.equal(fx.harness.scheduler.runSpec('/p')?.kind, 'pod', 'the pod is untouched');
});

t.test('the cap on running deployments → 403 (fact 8)', async (t) => {
  const fx = apiFor(t, { maxRunningDeployments: 2 });
  // Deployments that wait for offers keep running.
  await created(t, fx, appBody({ id: '/a' }));
  await created(t, fx, appBody({ id: '/b' }));
  for (const url of ['/v2/apps', '/v2/apps?force=true']) {
    const res = await call(fx, 'POST', url, appBody({ id: '/c' }));
    t.equal(res.status, 403, `${url}: force does not bypass the cap`);
    t.match(res.json.message, /^Max number \(2\) of running deployments is achieved/);
  }
  t.equal((await call(fx, 'GET', '/v2/apps/c')).status, 404, 'nothing was created');
});

t.test('the bound on all instances (--max_total_instances) → 422 at /, nothing created, scaled or stored', async (t) => {
  const fx = makeApi({ options: { maxTotalInstances: 10 } });
  t.teardown(() => fx.app.close());
  await created(t, fx, appBody({ id: '/a', instances: 6 }));
  const message = 'the root group would ask for 11 instances in all, more than 10 (--max_total_instances)';
  const cases: readonly [string, 'POST' | 'PUT', string, unknown][] = [
    ['a new app', 'POST', '/v2/apps', appBody({ id: '/b', instances: 5 })],
    ['forced', 'POST', '/v2/apps?force=true', appBody({ id: '/b', instances: 5 })],
    ['a scale of the app', 'PUT', '/v2/apps/a', { instances: 11 }],
    ['a group of apps', 'POST', '/v2/groups', { id: '/g', apps: [appBody({ id: '/g/x', instances: 2 }), appBody({ id: '/g/y', instances: 3 })] }],
    ['a dry run', 'PUT', '/v2/apps/a?dryRun=true', { instances: 11 }],
  ];
  for (const [name, method, url, body] of cases) {
    const res = await call(fx, method, url, body);
    t.equal(res.status, 422, name);
    t.same(res.json, { message: 'Object is not valid', details: [{ path: '/', errors: [message] }] }, name);
  }
  t.equal((await call(fx, 'GET', '/v2/apps/b')).status, 404, 'nothing was created');
  t.equal(fx.harness.scheduler.runSpec('/a')?.instances, 6, 'nothing was scaled');
  t.equal((await call(fx, 'PUT', '/v2/apps/a?force=true', { instances: 10 })).status, 200, 'up to the bound is accepted (forced over the running deployment)');
});

t.test('api_post_event carries the client, the path and the app definition (spec section 6, fact 107)', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody());
  t.equal(fx.apiEvents.length, 1);
  t.match(fx.apiEvents[0], {
    eventType: 'api_post_event', timestamp: NOW, clientIp: '127.0.0.1', uri: '/v2/apps',
    appDefinition: { id: '/foo', cmd: 'sleep 100', instances: 1, role: '*' },
  });
});

t.test('a created app runs: its deployment finishes once the instance is running', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ instances: 2 }));
  runAll(fx);
  t.strictSame(fx.deps.scheduler.deployments(), []);
  const app = (await call(fx, 'GET', '/v2/apps/foo')).json.app as Json;
  t.equal(app.tasksRunning, 2);
  t.strictSame(app.deployments, []);
  t.equal(fx.harness.nowMs, START_MS, 'no time passed');
});

t.test('the deprecated ipAddress: POST creates the app on its network; a PUT giving it replaces the stored networks (fact 116)', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'POST', '/v2/apps', { id: '/ipt', cmd: 'sleep 100', instances: 0, ipAddress: { networkName: 'dcos', labels: { a: 'b' } } });
  t.equal(res.status, 201, 'created, as Marathon 1.11 creates it');
  t.strictSame(res.json.networks, [{ mode: 'container', name: 'dcos', labels: { a: 'b' } }]);
  t.match(res.json.container, { type: 'MESOS', portMappings: [{ containerPort: 0, name: 'default' }] }, 'an empty Mesos container holds the default mapping');
  t.notOk('ipAddress' in res.json, 'ipAddress is not written');
  t.notOk('portDefinitions' in res.json, 'no port definitions on a container network');
  const got = await call(fx, 'GET', '/v2/apps/ipt');
  t.strictSame((got.json.app as Json).networks, res.json.networks, 'GET shows the same networks');
  await call(fx, 'POST', '/v2/apps', { id: '/host', cmd: 'sleep 100', instances: 0 });
  const put = await call(fx, 'PUT', '/v2/apps/host', { ipAddress: { networkName: 'overlay' } });
  t.equal(put.status, 200, 'a partial update with ipAddress is accepted');
  const after = await call(fx, 'GET', '/v2/apps/host');
  t.strictSame((after.json.app as Json).networks, [{ mode: 'container', name: 'overlay' }], 'the host network is replaced');
  t.notOk('portDefinitions' in (after.json.app as Json), 'the stored port definitions went with it');
});
