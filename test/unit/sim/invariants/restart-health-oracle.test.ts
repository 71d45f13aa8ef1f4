import t from 'tap';
import type { KillReason } from '../../../../src/scheduler/model/instance';
import { type HealthView, RestartHealthOracle } from '../../../../sim/invariants/restart-health-oracle';

/** One step: the healthy instances, and what the core holds of the others (absent: expunged). */
interface Step {
  readonly healthy: readonly string[];
  readonly others?: Readonly<Record<string, { condition: string; killReason?: KillReason }>>;
  /** Kill reasons of healthy instances (a kill asked for, its task not ended yet). */
  readonly reasons?: Readonly<Record<string, KillReason>>;
  /** The violation expected at this step (a pattern), or none. */
  readonly fires?: RegExp;
}

function run(min: number, steps: readonly Step[]): (string | undefined)[] {
  const oracle = new RestartHealthOracle();
  return steps.map((s) => {
    const healthy: HealthView[] = s.healthy.map((id) => ({ instanceId: id, condition: 'Running', ...(s.reasons?.[id] === undefined ? {} : { killReason: s.reasons[id] }) }));
    const find = (id: string): HealthView | undefined => {
      const o = s.others?.[id];
      return o === undefined ? undefined : { instanceId: id, ...o };
    };
    return oracle.check('d1 /web', healthy, min, find);
  });
}

const killed = (): { condition: string; killReason: KillReason } => ({ condition: 'Killed', killReason: 'replaced' });

t.test('the restart\'s own kills may not take the healthy count below the minimum; faults may', async (t) => {
  const rows: { name: string; min: number; steps: Step[] }[] = [
    {
      name: 'a replaced kill within the bound',
      min: 2,
      steps: [{ healthy: ['a', 'b', 'c'] }, { healthy: ['a', 'b'], others: { c: killed() } }],
    },
    {
      name: 'a replaced kill below the bound fires',
      min: 3,
      steps: [{ healthy: ['a', 'b', 'c'] }, { healthy: ['a', 'b'], others: { c: killed() }, fires: /^2 healthy instances during a rolling restart, minimum 3$/ }],
    },
    {
      name: 'an instance killed as replaced and expunged at once counts as killed (its reason read while it was healthy)',
      min: 3,
      steps: [{ healthy: ['a', 'b', 'c'] }, { healthy: ['a', 'b', 'c'], reasons: { c: 'replaced' } }, { healthy: ['a', 'b'], fires: /minimum 3/ }],
    },
    {
      name: 'an instance gone without a reason is a fault',
      min: 3,
      steps: [{ healthy: ['a', 'b', 'c'] }, { healthy: ['a', 'b'] }],
    },
    {
      name: 'a health fault below the bound does not fire',
      min: 3,
      steps: [{ healthy: ['a', 'b', 'c'] }, { healthy: ['a'], others: { b: { condition: 'Running' }, c: { condition: 'Running' } } }],
    },
    {
      name: 'an unhealthy instance the restart kills first is the fault\'s, not the kill\'s',
      min: 3,
      steps: [{ healthy: ['a', 'b', 'c'] }, { healthy: ['a', 'b'], others: { c: { condition: 'Running', killReason: 'replaced' } } }, { healthy: ['a', 'b'], others: { c: killed() } }],
    },
    {
      name: 'a task that failed (another reason) is a fault',
      min: 3,
      steps: [{ healthy: ['a', 'b', 'c'] }, { healthy: ['a', 'b'], others: { c: { condition: 'Failed' } } }],
    },
    {
      name: 'a fault is made up for by a new healthy instance; then a kill below the bound fires',
      min: 3,
      steps: [
        { healthy: ['a', 'b', 'c'] },
        { healthy: ['a', 'b'], others: { c: { condition: 'Failed', killReason: 'unhealthy' } } },
        { healthy: ['a', 'b', 'd'] },
        { healthy: ['a', 'd'], others: { b: killed() }, fires: /^2 healthy instances during a rolling restart, minimum 3$/ },
      ],
    },
    {
      name: 'a fault and a kill in one step: the kill is judged with the fault counted',
      min: 3,
      steps: [{ healthy: ['a', 'b', 'c', 'd'] }, { healthy: ['a', 'b'], others: { c: { condition: 'Running' }, d: killed() } }],
    },
    {
      name: 'below the minimum before it was ever reached: no violation',
      min: 3,
      steps: [{ healthy: ['a'] }, { healthy: ['a', 'b'] }, { healthy: ['b'], others: { a: killed() } }],
    },
  ];
  for (const row of rows) {
    const got = run(row.min, row.steps);
    row.steps.forEach((s, i) => {
      if (s.fires === undefined) t.equal(got[i], undefined, `${row.name}: step ${i} passes`);
      else t.match(got[i], s.fires, `${row.name}: step ${i} fires`);
    });
  }
});

t.test('forget drops the restarts that no longer run', async (t) => {
  const oracle = new RestartHealthOracle();
  oracle.check('d1 /a', [], 0, () => undefined);
  oracle.check('d2 /b', [], 0, () => undefined);
  oracle.forget((key) => key.startsWith('d2 '));
  t.equal(oracle.size, 1);
});
