import t from 'tap';
import { selectVictims } from '../../../../src/scheduler/instances/select-victims';
import type { Condition } from '../../../../src/scheduler/model/condition';
import { Instance } from '../../../../src/scheduler/model/instance';
import type { KillSelection } from '../../../../src/scheduler/model/run-spec';

/**
 * The order a scale-down kills in (README, "Kill"): not yet launched, then unreachable, then still
 * starting, then running ones, unhealthy before healthy; `killSelection` orders each rank by start
 * time (YOUNGEST_FIRST: the most recently started first); ties by instance id.
 */
function inst(id: string, condition: Condition, startedAtMs: number, healthy?: boolean): Instance {
  return Instance.from({
    instanceId: id, runSpecId: '/a', kind: 'app', runSpecVersion: 'v', configVersion: 'v', incarnation: 1, goal: 'Running',
    condition, conditionSinceMs: startedAtMs, role: '*', tasks: [], startedAtMs, ...(healthy === undefined ? {} : { healthy }),
  });
}

const ALL: readonly Instance[] = [
  inst('healthy-old', 'Running', 100, true),
  inst('healthy-new', 'Running', 900, true),
  inst('unhealthy', 'Running', 500, false),
  inst('starting', 'Starting', 800),
  inst('unreachable', 'Unreachable', 300),
  inst('scheduled', 'Scheduled', 700),
];

const CASES: ReadonlyArray<{ readonly selection: KillSelection; readonly count: number; readonly want: readonly string[] }> = [
  { selection: 'YOUNGEST_FIRST', count: 6, want: ['scheduled', 'unreachable', 'starting', 'unhealthy', 'healthy-new', 'healthy-old'] },
  { selection: 'OLDEST_FIRST', count: 6, want: ['scheduled', 'unreachable', 'starting', 'unhealthy', 'healthy-old', 'healthy-new'] },
  { selection: 'YOUNGEST_FIRST', count: 2, want: ['scheduled', 'unreachable'] },
  { selection: 'OLDEST_FIRST', count: 0, want: [] },
];

t.test('scale-down victims: by rank, then killSelection within a rank', async (t) => {
  for (const c of CASES) {
    t.same(selectVictims(ALL, c.count, c.selection).map((i) => i.instanceId), c.want, `${c.selection}, ${c.count}`);
  }
});

t.test('killSelection orders running instances by start time; ties by instance id', async (t) => {
  const running = [inst('b', 'Running', 200, true), inst('a', 'Running', 200, true), inst('c', 'Running', 100, true)];
  t.same(selectVictims(running, 3, 'YOUNGEST_FIRST').map((i) => i.instanceId), ['a', 'b', 'c']);
  t.same(selectVictims(running, 3, 'OLDEST_FIRST').map((i) => i.instanceId), ['c', 'a', 'b']);
});
