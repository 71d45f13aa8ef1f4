import t from 'tap';
import { makeApp, makePod, versionAt } from '../../../builders/run-spec-builders';
import { stampVersions, withVersion } from '../../../../src/scheduler/groups/versioning';
import type { AppSpec } from '../../../../src/scheduler/model/app';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';

const T0 = versionAt(0);
const T1 = versionAt(10);
const NOW = versionAt(20);

/** A stored app: created at T0, scaled at T1. */
const stored = makeApp({ id: '/a', instances: 2, version: T1, versionInfo: { lastConfigChangeAt: T0, lastScalingAt: T1 } });
const storedPod = makePod({ id: '/p', instances: 2, version: T1, versionInfo: { lastConfigChangeAt: T0, lastScalingAt: T1 } });

function stamps(spec: RunSpec): [string, string, string] {
  return [spec.version, spec.versionInfo.lastConfigChangeAt, spec.versionInfo.lastScalingAt];
}

t.test('Marathon versioning rules (GroupVersioningUtil)', async (t) => {
  type Case = [string, RunSpec | undefined, RunSpec, 'update' | 'restart', [string, string, string]];
  const cases: Case[] = [
    ['new app', undefined, makeApp({ id: '/a' }), 'update', [NOW, NOW, NOW]],
    ['config change', stored, makeApp({ id: '/a', instances: 2, cmd: 'sleep 5' }), 'update', [NOW, NOW, NOW]],
    ['config and scale change', stored, makeApp({ id: '/a', instances: 5, cmd: 'sleep 5' }), 'update', [NOW, NOW, NOW]],
    ['label change is a config change', stored, makeApp({ id: '/a', instances: 2, labels: { a: 'b' } }), 'update', [NOW, NOW, NOW]],
    ['role change is a config change', stored, makeApp({ id: '/a', instances: 2, role: 'dev' }), 'update', [NOW, NOW, NOW]],
    ['scale only', stored, makeApp({ id: '/a', instances: 5 }), 'update', [NOW, T0, NOW]],
    ['scale to zero', stored, makeApp({ id: '/a', instances: 0 }), 'update', [NOW, T0, NOW]],
    ['restart', stored, makeApp({ id: '/a', instances: 2 }), 'restart', [NOW, NOW, T1]],
    ['restart with a config change', stored, makeApp({ id: '/a', instances: 2, cmd: 'x' }), 'restart', [NOW, NOW, NOW]],
    ['nothing changed (fact 46)', stored, makeApp({ id: '/a', instances: 2, version: versionAt(99) }), 'update', [T1, T0, T1]],
    ['new pod', undefined, makePod({ id: '/p' }), 'update', [NOW, NOW, NOW]],
    ['pod scale only', storedPod, makePod({ id: '/p', instances: 4 }), 'update', [NOW, T0, NOW]],
    ['pod config change', storedPod, makePod({ id: '/p', instances: 2, containers: [{ cpus: 1 }] }), 'update', [NOW, NOW, NOW]],
    ['pod restart', storedPod, makePod({ id: '/p', instances: 2 }), 'restart', [NOW, NOW, T1]],
  ];
  for (const [name, original, target, change, want] of cases) {
    t.same(stamps(stampVersions(original, target, NOW, change)), want, name);
  }
});

t.test('key order of a run spec does not make a config change', async (t) => {
  const reordered = makeApp({ id: '/a', instances: 3 }) as unknown as Record<string, unknown>;
  const flipped = Object.fromEntries(Object.keys(reordered).reverse().map((k) => [k, reordered[k]])) as unknown as AppSpec;
  t.same(stamps(stampVersions(stored, flipped, NOW)), [NOW, T0, NOW]);
});

t.test('withVersion', async (t) => {
  const info = { lastConfigChangeAt: T0, lastScalingAt: T1 };
  const app = withVersion(makeApp(), NOW, info);
  t.same([app.version, app.versionInfo], [NOW, info]);
});
