import seedrandom from 'seedrandom';
import t from 'tap';
import { makeApp, makePod, versionAt } from '../../../builders/run-spec-builders';
import type { Group } from '../../../../src/scheduler/groups/group';
import type { GroupResult } from '../../../../src/scheduler/groups/group-result';
import { allRunSpecs, emptyRoot, withRunSpec, withoutRunSpec } from '../../../../src/scheduler/groups/root-group';
import { totalInstances } from '../../../../src/scheduler/groups/total-instances';

// totalInstances counts each map and group once and a map made by one edit from its parent's count
// (src/scheduler/groups/total-instances.ts): it must always equal the plain sum.

function ok(r: GroupResult): Group {
  if (!r.ok) throw new Error(`${r.error}: ${r.message}`);
  return r.root;
}

function plainSum(root: Group): number {
  return allRunSpecs(root).reduce((n, spec) => n + spec.instances, 0);
}

t.test('the total after every change of a random series equals the plain sum', async (t) => {
  const cases: readonly [string, number][] = [['seed 1', 1], ['seed 2', 2], ['seed 3', 3]];
  for (const [name, seed] of cases) {
    const rng = seedrandom(`total-${seed}`);
    const ids = Array.from({ length: 40 }, (_, i) => `/g${i % 4}/${i % 3 === 0 ? 'sub/' : ''}r${i}`);
    let root = emptyRoot(versionAt(0));
    let wrong = 0;
    let changes = 0;
    for (let n = 1; n <= 600; n++) {
      const id = ids[Math.floor(rng() * ids.length)];
      const exists = allRunSpecs(root).some((s) => s.id === id);
      const opts = { version: versionAt(n), newGroupEnforceRole: 'off' as const };
      const r = rng();
      if (exists && r < 0.25) root = ok(withoutRunSpec(root, id, opts));
      else {
        const instances = Math.floor(rng() * 50);
        const spec = Number(id.slice(id.lastIndexOf('r') + 1)) % 5 === 0 ? makePod({ id, instances, version: versionAt(n) }) : makeApp({ id, instances, version: versionAt(n) });
        const next = withRunSpec(root, spec, opts);
        if (!next.ok) continue;
        root = next.root;
      }
      changes++;
      if (totalInstances(root) !== plainSum(root)) wrong++;
    }
    t.equal(wrong, 0, `${name}: ${changes} changes, every total right (the last ${plainSum(root)})`);
    t.ok(changes > 500, `${name}: ${changes} changes`);
  }
});

t.test('a root read whole (no edit history) is counted whole', async (t) => {
  const root = ok(withRunSpec(emptyRoot(versionAt(0)), makeApp({ id: '/a', instances: 7 }), { version: versionAt(1), newGroupEnforceRole: 'off' }));
  const copy: Group = { ...root, apps: new Map(root.apps), groups: new Map(root.groups) };
  t.equal(totalInstances(copy), 7);
  t.equal(totalInstances(emptyRoot(versionAt(0))), 0);
});
