import t from 'tap';
import { podShapeErrors } from '../../../src/marathon/schemas/pod-shape-errors';
import { containerBody, podBody, type Json } from './pod-api-builders';

const accepted: readonly [string, Json][] = [
  ['the minimal pod', podBody()],
  ['nulls for every optional scalar (a GET echo sent back)', podBody({ user: null, version: null, scaling: { kind: 'fixed', instances: 1, maxInstances: null } }, {
    image: null, healthCheck: null, lifecycle: null, user: null, exec: null,
    endpoints: [{ name: 'e', containerPort: null, hostPort: null, protocol: ['tcp'], labels: {} }],
  })],
  ['enumerations in any case (Marathon compares lower-cased)', podBody({ scaling: { kind: 'FIXED' }, scheduling: { killSelection: 'youngest_first' } })],
  ['environment secrets and constraints in both forms', podBody({
    environment: { A: 'x', B: { secret: 'db' } },
    secrets: { db: { source: '/db/pass' } },
    scheduling: { placement: { constraints: [['hostname', 'UNIQUE'], { fieldName: 'rack', operator: 'MAX_PER', value: '2' }] } },
  })],
  ['unreachableStrategy as "disabled" or as an object', podBody({ scheduling: { unreachableStrategy: { inactiveAfterSeconds: 10, expungeAfterSeconds: 20 } } })],
  ['unknown fields are ignored, as Marathon ignores them', podBody({ somethingNew: { a: 1 } }, { tty: true })],
  ['a full container', podBody({}, {
    image: { kind: 'DOCKER', id: 'nginx:1', forcePull: true, pullConfig: { secret: 'reg' } },
    endpoints: [{ name: 'http', containerPort: 80, hostPort: 0, protocol: ['HTTP'] }],
    healthCheck: { http: { endpoint: 'http', path: '/h', scheme: 'https' }, delaySeconds: 1 },
    artifacts: [{ uri: 'http://x/y.tgz', extract: true }],
    lifecycle: { killGracePeriodSeconds: 5 },
  })],
];

t.test('shapes Marathon reads', async (t) => {
  for (const [name, body] of accepted) t.strictSame(podShapeErrors(body), [], name);
});

const rejected: readonly [string, unknown, { path: string; errors: string[] }[]][] = [
  ['null body', null, [{ path: '/', errors: ['error.expected.jsobject'] }]],
  ['fractional instances', podBody({ scaling: { instances: 1.5 } }), [{ path: '/scaling/instances', errors: ['error.expected.int'] }]],
  ['executor below the default executor', podBody({ executorResources: { cpus: 0.01 } }), [{ path: '/executorResources/cpus', errors: ['error.min'] }]],
  ['cpus 0', podBody({}, { resources: { cpus: 0 } }), [{ path: '/containers/0/resources/cpus', errors: ['error.min'] }]],
  ['a host port above 65535', podBody({}, { endpoints: [{ name: 'e', hostPort: 70000 }] }), [{ path: '/containers/0/endpoints/0/hostPort', errors: ['error.max'] }]],
  ['a secret reference without its name', podBody({ environment: { A: {} } }), [{ path: '/environment/A/secret', errors: ['error.path.missing'] }]],
  ['a label that is not a string', podBody({ labels: { a: 1 } }), [{ path: '/labels/a', errors: ['error.expected.jsstring'] }]],
  ['an image without id', podBody({}, { image: { kind: 'DOCKER' } }), [{ path: '/containers/0/image/id', errors: ['error.path.missing'] }]],
  ['a four-element constraint', podBody({ scheduling: { placement: { constraints: [['a', 'b', 'c', 'd']] } } }), [{ path: '/scheduling/placement/constraints/0', errors: ['error.maxLength'] }]],
  ['unknown scaling kind', podBody({ scaling: { kind: 'auto' } }), [{ path: '/scaling/kind', errors: ['error.unknown.enum.literal'] }]],
  ['a boolean that is a string', podBody({}, { image: { kind: 'DOCKER', id: 'x', forcePull: 'yes' } }), [{ path: '/containers/0/image/forcePull', errors: ['error.expected.jsboolean'] }]],
  ['a container name that is too long', podBody({ containers: [containerBody({ name: 'a'.repeat(64) })] }), [{ path: '/containers/0/name', errors: ['error.maxLength'] }]],
];

t.test('shapes Marathon rejects, with play-json keys at JSON pointers (fact 4)', async (t) => {
  for (const [name, body, details] of rejected) t.strictSame(podShapeErrors(body), details, name);
});

t.test('every problem is reported, one entry per path', async (t) => {
  const errors = podShapeErrors({ id: 5, containers: [{ name: 5, resources: { cpus: -1, mem: -1 } }], role: '' });
  t.strictSame(errors, [
    { path: '/id', errors: ['error.expected.jsstring'] },
    { path: '/containers/0/name', errors: ['error.expected.jsstring'] },
    { path: '/containers/0/resources/cpus', errors: ['error.min'] },
    { path: '/containers/0/resources/mem', errors: ['error.min'] },
    { path: '/role', errors: ['error.minLength'] },
  ]);
});
