import t from 'tap';
import { type PodTarget, podTargetOf } from '../../../src/api/v2/pods/pod-target';

const cases: readonly [string, PodTarget][] = [
  ['', { kind: 'list' }],
  ['/', { kind: 'list' }],
  ['::status', { kind: 'allStatus' }],
  ['p', { kind: 'pod', id: '/p' }],
  ['web/db/', { kind: 'pod', id: '/web/db' }],
  ['web/db::status', { kind: 'status', id: '/web/db' }],
  ['web/db::versions', { kind: 'versions', id: '/web/db' }],
  ['web/db::versions/', { kind: 'versions', id: '/web/db' }],
  ['p::versions/2026-01-01T00:00:00.000Z', { kind: 'version', id: '/p', version: '2026-01-01T00:00:00.000Z' }],
  ['p::instances', { kind: 'instances', id: '/p' }],
  ['p::instances/p.instance-abc', { kind: 'instance', id: '/p', instanceId: 'p.instance-abc' }],
  ['p::status/x', { kind: 'unknown' }],
  ['p::nope', { kind: 'unknown' }],
  ['::versions', { kind: 'unknown' }],
  ['/::instances', { kind: 'unknown' }],
];

t.test('the rest of a /v2/pods path splits into id and :: suffix', async (t) => {
  for (const [rest, target] of cases) t.strictSame(podTargetOf(rest), target, JSON.stringify(rest));
});
