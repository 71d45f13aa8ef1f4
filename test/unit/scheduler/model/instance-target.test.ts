import t from 'tap';
import { Instance, type InstanceFields } from '../../../../src/scheduler/model/instance';
import { InstanceTarget, type TargetFields } from '../../../../src/scheduler/model/instance-target';

/**
 * The target the instances of one run spec and definition share (model/instance-target.ts): one
 * object for many instances, immutable, so that a write through one instance changes that
 * instance alone; `of` and `with` hand out the last one made when it holds the same values.
 */

const T0 = 1_767_225_600_000;
const WEB: TargetFields = { runSpecId: '/web', kind: 'app', runSpecVersion: 'v1', configVersion: 'c1', role: '*' };

function fieldsOf(target: InstanceTarget): TargetFields {
  const { runSpecId, kind, runSpecVersion, configVersion, role } = target;
  return { runSpecId, kind, runSpecVersion, configVersion, role };
}

function instance(id: string, target: InstanceTarget): Instance {
  return new Instance({
    instanceId: id, ...fieldsOf(target), incarnation: 0, goal: 'Running', condition: 'Scheduled', conditionSinceMs: T0, tasks: [],
  }, target);
}

t.test('of: the last target made when its values are the same, else a new one with the values asked for', async (t) => {
  const cases: { name: string; other: Partial<TargetFields>; same: boolean }[] = [
    { name: 'the same values', other: {}, same: true },
    { name: 'another run spec', other: { runSpecId: '/api' }, same: false },
    { name: 'another kind', other: { kind: 'pod' }, same: false },
    { name: 'another version', other: { runSpecVersion: 'v2' }, same: false },
    { name: 'another config generation', other: { configVersion: 'c2' }, same: false },
    { name: 'another role', other: { role: 'db' }, same: false },
  ];
  for (const c of cases) {
    const first = InstanceTarget.of(WEB);
    const second = InstanceTarget.of({ ...WEB, ...c.other });
    t.equal(second === first, c.same, `${c.name}: ${c.same ? 'shared' : 'a new target'}`);
    t.strictSame(fieldsOf(second), { ...WEB, ...c.other }, `${c.name}: its values`);
  }
});

t.test('with: the same target when nothing changes, the one made last for the same change, the run spec and kind kept', async (t) => {
  const base = InstanceTarget.of({ ...WEB, runSpecId: '/with' });
  t.equal(base.with('v1', 'c1', '*'), base, 'no change: itself');
  const v2 = base.with('v2', 'c1', '*');
  t.strictSame(fieldsOf(v2), { ...WEB, runSpecId: '/with', runSpecVersion: 'v2' });
  t.equal(base.with('v2', 'c1', '*'), v2, 'the same change again: the target made for it');
  const db = base.with('v1', 'c1', 'db');
  t.not(db, v2, 'another change: another target');
  t.strictSame(fieldsOf(db), { ...WEB, runSpecId: '/with', role: 'db' });
  t.strictSame(fieldsOf(base), { ...WEB, runSpecId: '/with' }, 'the target itself never changes');
});

t.test('a write through one instance changes that instance only, never the others sharing its target', async (t) => {
  const cases: { field: 'runSpecVersion' | 'configVersion' | 'role'; value: string }[] = [
    { field: 'runSpecVersion', value: 'v9' }, { field: 'configVersion', value: 'c9' }, { field: 'role', value: 'db' },
  ];
  for (const c of cases) {
    const target = InstanceTarget.of(WEB);
    const written = instance('web.instance-a', target);
    const sibling = instance('web.instance-b', target);
    written[c.field] = c.value;
    t.equal(written[c.field], c.value, `${c.field}: written`);
    t.strictSame(fieldsOf(target), WEB, `${c.field}: the shared target is unchanged`);
    t.strictSame(sibling.toJSON(), { ...instance('web.instance-b', InstanceTarget.of(WEB)).toJSON() }, `${c.field}: the sibling is unchanged`);
    const expected: InstanceFields = { ...sibling.toJSON(), instanceId: 'web.instance-a', [c.field]: c.value };
    t.strictSame(written.toJSON(), expected, `${c.field}: the JSON has the new value and every other as before`);
    t.strictSame(Instance.from(written.toJSON()).toJSON(), expected, `${c.field}: through the plain record`);
    sibling[c.field] = c.value;
    t.strictSame(fieldsOf(target), WEB, `${c.field}: still unchanged after the sibling's write`);
  }
});

t.test('instances made from records of one run spec and definition give their records back, and each keeps its own values after a write', async (t) => {
  const records: InstanceFields[] = ['a', 'b', 'c'].map((x) => ({
    instanceId: `web.instance-${x}`, ...WEB, incarnation: 0, goal: 'Running', condition: 'Scheduled', conditionSinceMs: T0, tasks: [],
  }));
  const made = records.map((r) => Instance.from(r));
  made.forEach((inst, i) => t.strictSame(JSON.parse(JSON.stringify(inst)), records[i], `${records[i].instanceId}: its record back`));
  const [a, b] = made;
  a.runSpecVersion = 'v2';
  b.runSpecVersion = 'v2';
  t.equal(made[2].runSpecVersion, 'v1', 'the third keeps its version');
  t.strictSame([a.runSpecId, a.kind, a.configVersion, a.role], ['/web', 'app', 'c1', '*'], 'the others kept on a retarget');
});
