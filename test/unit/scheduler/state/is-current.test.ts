import t from 'tap';
import { emptyRoot, EMPTY_ROOT_VERSION } from '../../../../src/scheduler/groups/group-tree';
import type { Instance } from '../../../../src/scheduler/model/instance';
import { newRunSpecState } from '../../../../src/scheduler/state/new-run-spec-state';
import { SchedulerState } from '../../../../src/scheduler/state/scheduler-state';
import { makeApp } from '../../../builders/run-spec-builders';

/**
 * `SchedulerState.isCurrent` (hot: every changed instance of every input) answers from the
 * instances taken out of the state rather than by looking each one up by id; its contract is
 * still `instance(inst.instanceId) === inst` for every instance the state has held.
 */

function instanceOf(runSpecId: string, instanceId: string): Instance {
  return { instanceId, runSpecId, kind: 'app', goal: 'Running', condition: 'Scheduled', tasks: [] } as unknown as Instance;
}

t.test('isCurrent agrees with a look-up by id: held, expunged, its run spec forgotten, the run spec re-created', async (t) => {
  const state = new SchedulerState(emptyRoot(EMPTY_ROOT_VERSION), '*');
  const rs = newRunSpecState(makeApp({ id: '/web' }), 10);
  state.addRunSpec(rs);
  const [a, b, c] = ['1', '2', '3'].map((n) => instanceOf('/web', `web.instance-${n}`));
  for (const inst of [a, b, c]) rs.instances.set(inst.instanceId, inst);
  const agrees = (inst: Instance): boolean => state.isCurrent(inst) === (state.instance(inst.instanceId) === inst);

  t.ok(state.isCurrent(a) && state.isCurrent(b) && state.isCurrent(c), 'held instances are current');
  state.removeInstance(rs, a);
  t.notOk(state.isCurrent(a), 'an expunged instance is not');
  t.equal(state.instance(a.instanceId), undefined, 'and is gone from its run spec');
  t.ok(state.isCurrent(b), 'the others still are');

  state.forgetRunSpec(rs);
  t.notOk(state.isCurrent(b) || state.isCurrent(c), 'the instances of a forgotten run spec are not');

  const again = newRunSpecState(makeApp({ id: '/web' }), 10);
  state.addRunSpec(again);
  const b2 = instanceOf('/web', b.instanceId);
  again.instances.set(b2.instanceId, b2);
  t.ok(state.isCurrent(b2), 'the re-created run spec\'s instance under the same id is');
  t.notOk(state.isCurrent(b), 'the old object under that id is not');
  for (const inst of [a, b, c, b2]) t.ok(agrees(inst), `${inst.instanceId}: the same answer as the look-up`);
});
