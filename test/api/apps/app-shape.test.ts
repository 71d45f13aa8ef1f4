import t from 'tap';
import { appShapeErrors } from '../../../src/marathon/schemas/app-shape';
import { marathonPath } from '../../../src/marathon/schemas/app-error-path';

t.test('JSON pointers become Marathon paths (fact 3)', async (t) => {
  const cases: [string, string][] = [
    ['', '/'],
    ['/', '/'],
    ['/id', '/id'],
    ['/healthChecks/0', '/healthChecks(0)'],
    ['/healthChecks/0/portIndex', '/healthChecks(0)/portIndex'],
    ['/fetch/1/uri', '/fetch(1)/uri'],
    ['/constraints/2/0', '/constraints(2)(0)'],
    ['/0/id', '/(0)/id'],
    ['/labels/a~1b~0c', '/labels/a/b~c'],
  ];
  for (const [pointer, path] of cases) t.equal(marathonPath(pointer), path, pointer);
});

t.test('valid definitions pass both contracts', async (t) => {
  const full = {
    id: '/prod/web-1.a', cmd: 'x', args: [], instances: 0, cpus: 0.001, mem: 0, disk: 0, gpus: 0,
    env: { A: 'b', S: { secret: 'db' } }, labels: { a: 'b' }, constraints: [['hostname', 'UNIQUE'], ['rack', 'LIKE', 'r1']],
    portDefinitions: [{ port: 0, name: 'http', protocol: 'udp,tcp', labels: {} }], requirePorts: false,
    healthChecks: [{ protocol: 'AGENT_HTTP', portIndex: 0, path: '/' }, { protocol: 'COMMAND', command: { value: 'true' } }],
    readinessChecks: [{ name: 'r', httpStatusCodesForReady: [200, 204] }],
    upgradeStrategy: { minimumHealthCapacity: 0, maximumOverCapacity: 1 }, unreachableStrategy: 'disabled',
    container: { type: 'DOCKER', docker: { image: 'nginx' }, volumes: [{ containerPath: 'd', mode: 'RW', persistent: { size: 1 } }] },
    fetch: [{ uri: 'http://x/y.tgz' }], killSelection: 'oldest_first', role: '*', dependencies: ['../db', '/x'],
    networks: [{ mode: 'host' }], executorResources: { cpus: 0.1, mem: 32, disk: 10 }, resourceLimits: { cpus: 'unlimited', mem: 64 },
    tasks: [{ anything: true }], tasksRunning: 'ignored', unknownField: { kept: true },
  };
  t.strictSame(appShapeErrors(full, 'app'), []);
  t.strictSame(appShapeErrors({ instances: 2 }, 'update'), [], 'an update needs no id');
  t.strictSame(appShapeErrors({ id: 'relative/../id' }, 'app'), [], 'relative ids are resolved later');
});

t.test('shape errors carry play-json keys (fact 4)', async (t) => {
  const cases: [unknown, string, string][] = [
    [{}, '/id', 'error.path.missing'],
    [{ id: ['x'] }, '/id', 'error.expected.jsstring'],
    [{ id: '/a', backoffFactor: 0.5 }, '/backoffFactor', 'error.min'],
    [{ id: '/a', backoffSeconds: 1.5 }, '/backoffSeconds', 'error.expected.int'],
    [{ id: '/a', args: 'x' }, '/args', 'error.expected.jsarray'],
    [{ id: '/a', args: [1] }, '/args(0)', 'error.expected.jsstring'],
    [{ id: '/a', container: 'docker' }, '/container', 'error.expected.jsobject'],
    [{ id: '/a', container: { docker: {} } }, '/container/docker/image', 'error.path.missing'],
    [{ id: '/a', container: { type: 'RKT' } }, '/container/type', 'error.unknown.enum.literal'],
    [{ id: '/a', env: { S: { secret: 1 } } }, '/env/S/secret', 'error.expected.jsstring'],
    [{ id: '/a', readinessChecks: [{ timeoutSeconds: 0 }] }, '/readinessChecks(0)/timeoutSeconds', 'error.min'],
    [{ id: '/a', readinessChecks: [{ httpStatusCodesForReady: [] }] }, '/readinessChecks(0)/httpStatusCodesForReady', 'error.minLength'],
    [{ id: '/a', portDefinitions: [{ name: 'HTTP' }] }, '/portDefinitions(0)/name', 'error.pattern'],
    [{ id: '/a', dependencies: ['/A'] }, '/dependencies(0)', 'error.pattern'],
    [{ id: '/a', resourceLimits: { cpus: 'lots' } }, '/resourceLimits/cpus', 'error.unknown.enum.literal'],
    [{ id: '/a', executorResources: { mem: 1 } }, '/executorResources/mem', 'error.min'],
    [{ id: '/a', fetch: [{ uri: '' }] }, '/fetch(0)/uri', 'error.minLength'],
    [{ id: '/a', healthChecks: [{ ipProtocol: 'IPv5' }] }, '/healthChecks(0)/ipProtocol', 'error.unknown.enum.literal'],
    [[], '/', 'error.expected.jsobject'],
  ];
  for (const [body, path, error] of cases) t.strictSame(appShapeErrors(body, 'app'), [{ path, errors: [error] }], JSON.stringify(body));
});

t.test('a long invalid id is refused quickly (no catastrophic backtracking)', async (t) => {
  const started = process.hrtime.bigint();
  const errors = appShapeErrors({ id: `/${'a-'.repeat(20_000)}A` }, 'app');
  // Longer than MAX_ID_LENGTH too (docs/limits.md): both keys, and still no backtracking.
  t.strictSame(errors, [{ path: '/id', errors: ['error.maxLength', 'error.pattern'] }]);
  t.ok(process.hrtime.bigint() - started < 1_000_000_000n, 'under a second');
});

t.test('bulk elements are located by their position', async (t) => {
  t.strictSame(appShapeErrors({ mem: 'x' }, 'update', '/3'), [{ path: '/(3)/mem', errors: ['error.expected.jsnumber'] }]);
});
