import t from 'tap';
import { assignServicePorts, servicePortsOf } from '../../../../src/scheduler/groups/service-ports';
import { emptyRoot, findRunSpec, withRunSpec } from '../../../../src/scheduler/groups/root-group';
import type { Group } from '../../../../src/scheduler/groups/group';
import type { AppSpec } from '../../../../src/scheduler/model/app';
import { makeApp, makePortMapping } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

/** Marathon's `AssignDynamicServiceLogic` as the core applies it to every root change. */

const RANGE = { min: 10_000, max: 20_000 };
const V = '2026-01-01T00:00:00.000Z';

function rootOf(...apps: AppSpec[]): Group {
  let root = emptyRoot(V);
  for (const app of apps) {
    const r = withRunSpec(root, app, { version: V, newGroupEnforceRole: 'off' });
    if (!r.ok) throw new Error(r.message);
    root = r.root;
  }
  return root;
}

/** An app whose portDefinitions name `ports` (0 = dynamic). */
function appWithPorts(id: string, ports: number[], extra: Partial<Parameters<typeof makeApp>[0]> = {}): AppSpec {
  return makeApp({ id, hostPorts: ports.map(() => 0), portDefinitions: ports.map((port) => ({ port, protocol: 'tcp', labels: {} })), ...extra });
}

function portsAfter(from: Group, to: Group, range = RANGE): Record<string, number[]> | string {
  const result = assignServicePorts(range, from, to);
  if (!result.ok) return result.message;
  const out: Record<string, number[]> = {};
  for (const [id] of result.root.apps) out[id] = servicePortsOf(findRunSpec(result.root, id) as AppSpec);
  return out;
}

t.test('new apps: each dynamic port gets the lowest free port of the range, in path id order; fixed ports are kept and avoided', async (t) => {
  const cases: [string, Group, Group, Record<string, number[]> | string][] = [
    ['one app, one port', rootOf(), rootOf(appWithPorts('/a', [0])), { '/a': [10_000] }],
    ['two apps, several ports, id order', rootOf(), rootOf(appWithPorts('/b', [0]), appWithPorts('/a', [0, 0])), { '/a': [10_000, 10_001], '/b': [10_002] }],
    ['a fixed port in the range is skipped', rootOf(), rootOf(appWithPorts('/a', [10_000, 0]), appWithPorts('/b', [0])), { '/a': [10_000, 10_001], '/b': [10_002] }],
    ['ports of the previous root stay taken', rootOf(appWithPorts('/a', [10_000])), rootOf(appWithPorts('/a', [10_000]), appWithPorts('/b', [0])), { '/a': [10_000], '/b': [10_001] }],
    ['a fixed port outside the range is kept', rootOf(), rootOf(appWithPorts('/a', [80, 0])), { '/a': [80, 10_000] }],
    ['two apps may name the same fixed port (Marathon does not refuse it)', rootOf(), rootOf(appWithPorts('/a', [10_500]), appWithPorts('/b', [10_500])), { '/a': [10_500], '/b': [10_500] }],
    ['the range runs out', rootOf(), rootOf(appWithPorts('/a', [0, 0, 0])), 'All ports in the range [10000-10001) are already in use'],
  ];
  for (const [name, from, to, expected] of cases) {
    t.same(portsAfter(from, to, name === 'the range runs out' ? { min: 10_000, max: 10_001 } : RANGE), expected, name);
  }
});

t.test('an updated app keeps its ports: the ones it had in the range come first', async (t) => {
  const before = rootOf(appWithPorts('/a', [10_003, 10_007]), appWithPorts('/b', [10_000]));
  const changed = appWithPorts('/a', [0, 0], { cmd: 'sleep 2' });
  t.same(portsAfter(before, rootOf(changed, appWithPorts('/b', [10_000]))), { '/a': [10_003, 10_007], '/b': [10_000] });
  const oneFixed = appWithPorts('/a', [10_007, 0], { cmd: 'sleep 2' });
  t.same(portsAfter(before, rootOf(oneFixed, appWithPorts('/b', [10_000]))), { '/a': [10_007, 10_003], '/b': [10_000] },
    'a port it still names is not handed out twice');
});

t.test('an app that is not new or changed is left alone (a scale keeps whatever it has)', async (t) => {
  const legacy = appWithPorts('/a', [0]);
  const scaled = { ...legacy, instances: 3 };
  t.same(portsAfter(rootOf(legacy), rootOf(scaled)), { '/a': [0] });
});

t.test('the assigned ports are written into the app\'s ports; with requirePorts they are the host ports', async (t) => {
  const required = appWithPorts('/a', [0, 0], { requirePorts: true });
  const result = assignServicePorts(RANGE, rootOf(), rootOf(required, appWithPorts('/b', [0])));
  if (!result.ok) throw new Error(result.message);
  const a = findRunSpec(result.root, '/a') as AppSpec;
  t.match(a.portDefinitions, [{ port: 10_000, protocol: 'tcp' }, { port: 10_001, protocol: 'tcp' }]);
  t.same(a.hostPorts, [10_000, 10_001], 'requirePorts: host port = service port');
  t.same((findRunSpec(result.root, '/b') as AppSpec).hostPorts, [0], 'otherwise any host port');

  const mapped = makeApp({
    id: '/c', networks: [{ mode: 'container/bridge', labels: {} }],
    container: { type: 'DOCKER', portMappings: [makePortMapping({ containerPort: 80, hostPort: 0 }), makePortMapping({ containerPort: 81, servicePort: 12_345 })] },
  });
  const r2 = assignServicePorts(RANGE, rootOf(), rootOf(mapped));
  if (!r2.ok) throw new Error(r2.message);
  const c = findRunSpec(r2.root, '/c') as AppSpec;
  t.match(c.container, { type: 'DOCKER', portMappings: [{ containerPort: 80, hostPort: 0, servicePort: 10_000 }, { containerPort: 81, servicePort: 12_345 }] });
});

t.test('through the core: assigned on create, kept on an update that asks again, no restart; exhaustion is refused', async (t) => {
  const h = new Harness({ options: { localPortMin: 10_000, localPortMax: 10_001 } });
  h.put(appWithPorts('/a', [0]));
  const created = h.scheduler.runSpec('/a') as AppSpec;
  t.same(servicePortsOf(created), [10_000]);
  h.advance(1000);
  h.clearRecords();
  h.put(appWithPorts('/a', [0]));
  const again = h.scheduler.runSpec('/a') as AppSpec;
  t.same(servicePortsOf(again), [10_000], 'the same port');
  t.equal(again.version, created.version, 'the same config: the stored version stays (nothing to restart)');
  t.same(h.calls('kill'), []);

  const refused = h.put(appWithPorts('/b', [0, 0]));
  t.match(refused, { ok: false, error: 'invalid', details: [{ path: '/', errors: ['All ports in the range [10000-10001) are already in use'] }] });
  t.equal(h.scheduler.runSpec('/b'), undefined, 'nothing was created');
  t.match(h.events('group_change_failed'), [{ reason: 'Object is not valid' }]);
});
