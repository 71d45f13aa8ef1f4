import t from 'tap';
import { MAX_INSTANCES } from '../../../src/scheduler/model/run-spec-limits';
import { MAX_BACKOFF_FACTOR, MAX_RESOURCE, MAX_SECONDS } from '../../../src/marathon/schemas/limits';
import { stateSnapshot } from '../../fuzz/state-snapshot';
import { apiFor, appBody, call, type Json } from '../apps/apps-kit';
import { podBody, containerBody } from '../pods/pod-api-builders';
import { convertDefinition } from '../../../sim/runner/convert-definitions';

type Method = 'POST' | 'PUT' | 'PATCH';

interface Row {
  readonly name: string;
  readonly method: Method;
  readonly url: string;
  readonly body: unknown;
  /** Marathon's path of the offending field and the play-json key (422 "Invalid JSON"). */
  readonly path: string;
  readonly key: string;
}

const HUGE = [4294967296, 2 ** 53, 1e308];
const app = (over: Json): Json => appBody({ id: '/a', ...over });

/** Issue 11 item 1: every number of every definition has a range, checked before anything is stored. */
const rows: Row[] = [
  ...HUGE.map((n): Row => ({ name: `app instances ${n}`, method: 'POST', url: '/v2/apps', body: app({ instances: n }), path: '/instances', key: 'error.max' })),
  { name: 'PATCH instances 1e22', method: 'PATCH', url: '/v2/apps/existing', body: { instances: 1e22 }, path: '/instances', key: 'error.max' },
  { name: 'PUT instances 1e22', method: 'PUT', url: '/v2/apps/existing', body: { instances: 1e22 }, path: '/instances', key: 'error.max' },
  { name: 'bulk PUT instances 1e22', method: 'PUT', url: '/v2/apps', body: [{ id: '/existing', instances: 1e22 }], path: '/(0)/instances', key: 'error.max' },
  { name: 'pod scaling.instances 1e22', method: 'POST', url: '/v2/pods', body: podBody({ scaling: { kind: 'fixed', instances: 1e22 } }), path: '/scaling/instances', key: 'error.max' },
  { name: 'pod scaling.maxInstances', method: 'POST', url: '/v2/pods', body: podBody({ scaling: { kind: 'fixed', instances: 1, maxInstances: MAX_INSTANCES + 1 } }), path: '/scaling/maxInstances', key: 'error.max' },
  { name: 'a group\'s app', method: 'POST', url: '/v2/groups', body: { id: '/g', apps: [app({ id: 'a', instances: 1e22 })] }, path: '/apps(0)/instances', key: 'error.max' },
  { name: 'a nested group\'s app', method: 'PUT', url: '/v2/groups/g', body: { groups: [{ id: 'sub', apps: [app({ id: 'a', cpus: 1e308 })] }] }, path: '/groups(0)/apps(0)/cpus', key: 'error.max' },
  { name: 'scaleBy 1e300', method: 'PUT', url: '/v2/groups/existing-group', body: { scaleBy: 1e300 }, path: '/scaleBy', key: 'error.max' },
  { name: 'app instances just above the limit', method: 'POST', url: '/v2/apps', body: app({ instances: MAX_INSTANCES + 1 }), path: '/instances', key: 'error.max' },
  { name: 'cpus', method: 'POST', url: '/v2/apps', body: app({ cpus: 1e308 }), path: '/cpus', key: 'error.max' },
  { name: 'mem', method: 'POST', url: '/v2/apps', body: app({ mem: MAX_RESOURCE * 2 }), path: '/mem', key: 'error.max' },
  { name: 'disk', method: 'POST', url: '/v2/apps', body: app({ disk: 1e300 }), path: '/disk', key: 'error.max' },
  { name: 'gpus', method: 'POST', url: '/v2/apps', body: app({ gpus: 1e12 }), path: '/gpus', key: 'error.max' },
  { name: 'backoffSeconds', method: 'POST', url: '/v2/apps', body: app({ backoffSeconds: MAX_SECONDS + 1 }), path: '/backoffSeconds', key: 'error.max' },
  { name: 'backoffFactor', method: 'POST', url: '/v2/apps', body: app({ backoffFactor: MAX_BACKOFF_FACTOR + 1 }), path: '/backoffFactor', key: 'error.max' },
  { name: 'maxLaunchDelaySeconds', method: 'POST', url: '/v2/apps', body: app({ maxLaunchDelaySeconds: 1e15 }), path: '/maxLaunchDelaySeconds', key: 'error.max' },
  { name: 'taskKillGracePeriodSeconds', method: 'POST', url: '/v2/apps', body: app({ taskKillGracePeriodSeconds: 1e15 }), path: '/taskKillGracePeriodSeconds', key: 'error.max' },
  { name: 'health check interval', method: 'POST', url: '/v2/apps', body: app({ healthChecks: [{ protocol: 'COMMAND', command: { value: 'true' }, intervalSeconds: 1e10 }] }), path: '/healthChecks(0)/intervalSeconds', key: 'error.max' },
  { name: 'health check maxConsecutiveFailures', method: 'POST', url: '/v2/apps', body: app({ healthChecks: [{ protocol: 'COMMAND', command: { value: 'true' }, maxConsecutiveFailures: 2 ** 31 }] }), path: '/healthChecks(0)/maxConsecutiveFailures', key: 'error.max' },
  { name: 'readiness timeout', method: 'POST', url: '/v2/apps', body: app({ readinessChecks: [{ timeoutSeconds: 1e10 }] }), path: '/readinessChecks(0)/timeoutSeconds', key: 'error.max' },
  { name: 'unreachable expunge (int64 in the RAML)', method: 'POST', url: '/v2/apps', body: app({ unreachableStrategy: { inactiveAfterSeconds: 1, expungeAfterSeconds: 1e18 } }), path: '/unreachableStrategy/expungeAfterSeconds', key: 'error.max' },
  { name: 'executorResources', method: 'POST', url: '/v2/apps', body: app({ executorResources: { mem: 1e300 } }), path: '/executorResources/mem', key: 'error.max' },
  { name: 'resourceLimits', method: 'POST', url: '/v2/apps', body: app({ resourceLimits: { cpus: 1e300 } }), path: '/resourceLimits/cpus', key: 'error.max' },
  { name: 'check interval', method: 'POST', url: '/v2/apps', body: app({ check: { exec: { command: { shell: 'true' } }, intervalSeconds: 1e10 } }), path: '/check/intervalSeconds', key: 'error.max' },
  { name: 'pod container cpus', method: 'POST', url: '/v2/pods', body: podBody({ containers: [containerBody({ resources: { cpus: 1e308, mem: 32 } })] }), path: '/containers/0/resources/cpus', key: 'error.max' },
  { name: 'pod kill grace (a double)', method: 'POST', url: '/v2/pods', body: podBody({ containers: [containerBody({ lifecycle: { killGracePeriodSeconds: 1e300 } })] }), path: '/containers/0/lifecycle/killGracePeriodSeconds', key: 'error.max' },
  { name: 'pod health check grace', method: 'POST', url: '/v2/pods', body: podBody({ containers: [containerBody({ healthCheck: { exec: { command: { shell: 'true' } }, gracePeriodSeconds: 1e10 } })] }), path: '/containers/0/healthCheck/gracePeriodSeconds', key: 'error.max' },
  { name: 'pod backoff', method: 'POST', url: '/v2/pods', body: podBody({ scheduling: { backoff: { backoff: 1e300 } } }), path: '/scheduling/backoff/backoff', key: 'error.max' },
  { name: 'pod backoffFactor', method: 'POST', url: '/v2/pods', body: podBody({ scheduling: { backoff: { backoffFactor: 1e300 } } }), path: '/scheduling/backoff/backoffFactor', key: 'error.max' },
  { name: 'pod unreachable', method: 'POST', url: '/v2/pods', body: podBody({ scheduling: { unreachableStrategy: { inactiveAfterSeconds: 1e12, expungeAfterSeconds: 1e12 } } }), path: '/scheduling/unreachableStrategy/inactiveAfterSeconds', key: 'error.max' },
  { name: 'pod executorResources', method: 'POST', url: '/v2/pods', body: podBody({ executorResources: { cpus: 1e300 } }), path: '/executorResources/cpus', key: 'error.max' },
  // Kept and echoed only, but numbers of a definition all the same (they were stored unbounded).
  { name: 'pod container resourceLimits', method: 'POST', url: '/v2/pods', body: podBody({ containers: [containerBody({ resourceLimits: { cpus: 1e308, mem: 'unlimited' } })] }), path: '/containers/0/resourceLimits/cpus', key: 'error.max' },
  { name: 'pod container resourceLimits below 0 (error.min as every range, no longer the converter\'s Object is not valid)', method: 'POST', url: '/v2/pods', body: podBody({ containers: [containerBody({ resourceLimits: { mem: -1 } })] }), path: '/containers/0/resourceLimits/mem', key: 'error.min' },
  { name: 'pod container check interval', method: 'POST', url: '/v2/pods', body: podBody({ containers: [containerBody({ check: { exec: { command: { shell: 'true' } }, intervalSeconds: 1e10 } })] }), path: '/containers/0/check/intervalSeconds', key: 'error.max' },
  { name: 'pod container check delay', method: 'POST', url: '/v2/pods', body: podBody({ containers: [containerBody({ check: { exec: { command: { shell: 'true' } }, delaySeconds: 1e300 } })] }), path: '/containers/0/check/delaySeconds', key: 'error.max' },
  { name: 'pod container shmSize', method: 'POST', url: '/v2/pods', body: podBody({ containers: [containerBody({ linuxInfo: { ipcInfo: { mode: 'PRIVATE', shmSize: 1e300 } } })] }), path: '/containers/0/linuxInfo/ipcInfo/shmSize', key: 'error.max' },
  { name: 'pod shmSize', method: 'POST', url: '/v2/pods', body: podBody({ linuxInfo: { ipcInfo: { mode: 'PRIVATE', shmSize: MAX_RESOURCE + 1 } } }), path: '/linuxInfo/ipcInfo/shmSize', key: 'error.max' },
  { name: 'external volume size', method: 'POST', url: '/v2/apps', body: app({ container: { type: 'MESOS', volumes: [{ containerPath: '/d', mode: 'RW', external: { name: 'v', provider: 'dvdi', size: 1e300 } }] } }), path: '/container/volumes(0)/external/size', key: 'error.max' },
  { name: 'app container shmSize', method: 'POST', url: '/v2/apps', body: app({ container: { type: 'MESOS', linuxInfo: { ipcInfo: { mode: 'PRIVATE', shmSize: 1e300 } } } }), path: '/container/linuxInfo/ipcInfo/shmSize', key: 'error.max' },
];

t.test('numbers out of range: 422 "Invalid JSON" before anything is stored (issue 11 item 1)', async (t) => {
  for (const row of rows) {
    const fx = apiFor(t);
    t.equal((await call(fx, 'POST', '/v2/apps', appBody({ id: '/existing' }))).status, 201);
    t.equal((await call(fx, 'POST', '/v2/groups', { id: '/existing-group', apps: [appBody({ id: 'a' })] })).status, 201);
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await call(fx, row.method, row.url, row.body);
    t.equal(res.status, 422, `${row.name}: status (${res.text.slice(0, 200)})`);
    t.equal(res.json.message, 'Invalid JSON', `${row.name}: message`);
    const details = (res.json.details ?? []) as { path: string; errors: string[] }[];
    t.ok(details.some((d) => d.path === row.path && d.errors.includes(row.key)), `${row.name}: ${row.key} at ${row.path} in ${JSON.stringify(details)}`);
    t.equal(stateSnapshot(fx.harness.scheduler), before, `${row.name}: nothing changed`);
  }
});

t.test('values at the bounds are accepted', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'POST', '/v2/apps', app({
    instances: 0, cpus: MAX_RESOURCE, mem: MAX_RESOURCE, backoffSeconds: MAX_SECONDS, backoffFactor: MAX_BACKOFF_FACTOR,
    maxLaunchDelaySeconds: MAX_SECONDS, taskKillGracePeriodSeconds: MAX_SECONDS,
    unreachableStrategy: { inactiveAfterSeconds: MAX_SECONDS, expungeAfterSeconds: MAX_SECONDS },
  }));
  t.equal(res.status, 201, res.text.slice(0, 300));
  t.equal(fx.harness.scheduler.runSpec('/a')?.backoff.maxMs, MAX_SECONDS * 1000, 'seconds become exact milliseconds');
});

t.test('scaleBy: a factor within range whose result exceeds MAX_INSTANCES is refused, nothing scaled', async (t) => {
  const fx = apiFor(t);
  t.equal((await call(fx, 'POST', '/v2/groups', { id: '/g', apps: [appBody({ id: 'a', instances: 2 }), appBody({ id: 'b', instances: 0 })] })).status, 201);
  const before = stateSnapshot(fx.harness.scheduler);
  const res = await call(fx, 'PUT', '/v2/groups/g', { scaleBy: MAX_INSTANCES });
  t.equal(res.status, 422);
  t.same(res.json, {
    message: 'Object is not valid',
    details: [{ path: '/scaleBy', errors: [`scales /g/a to ${2 * MAX_INSTANCES} instances, more than ${MAX_INSTANCES}`] }],
  });
  t.equal(stateSnapshot(fx.harness.scheduler), before, 'nothing changed');
  t.equal((await call(fx, 'PUT', '/v2/groups/g?force=true', { scaleBy: 2 })).status, 200, 'a scale within the limit still works');
  t.equal(fx.harness.scheduler.runSpec('/g/a')?.instances, 4);
});

t.test('a scenario file\'s definitions get the same ranges through the same converter', async (t) => {
  const app = convertDefinition('app', { id: '/a', cmd: 'x', instances: 1e22 }, '*', '2026-01-01T00:00:00.000Z');
  t.same(app, { ok: false, errors: [{ path: '/instances', errors: ['error.max'] }] });
  const pod = convertDefinition('pod', podBody({ scaling: { instances: 4294967296 } }), '*', '2026-01-01T00:00:00.000Z');
  t.same(pod, { ok: false, errors: [{ path: '/scaling/instances', errors: ['error.max'] }] });
});
