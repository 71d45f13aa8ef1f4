import t from 'tap';
import {
  floorCapacity, floorLabelViolations, killsWithinFloor, parseFloorCapacity, unhealthyKillFloor, UNHEALTHY_KILL_FLOOR_LABEL,
} from '../../../../src/scheduler/health/unhealthy-kill-floor';
import { makeApp } from '../../../builders/run-spec-builders';

t.test('parseFloorCapacity: a plain decimal from 0 to 1, nothing else', async (t) => {
  const cases: [string, number | undefined][] = [
    ['0', 0], ['1', 1], ['0.5', 0.5], ['.75', 0.75], ['1.0', 1], ['0.', 0], ['00.25', 0.25],
    ['1.5', undefined], ['2', undefined], ['-0.1', undefined], ['+0.5', undefined], ['1e-1', undefined],
    [' 0.5', undefined], ['0.5 ', undefined], ['', undefined], ['.', undefined], ['0x1', undefined],
    ['50%', undefined], ['NaN', undefined], ['Infinity', undefined], ['one', undefined],
  ];
  for (const [text, expected] of cases) t.equal(parseFloorCapacity(text), expected, JSON.stringify(text));
});

t.test('floorCapacity: the label wins, then --unhealthy_kill_floor, then minimumHealthCapacity', async (t) => {
  const cases: [string, Record<string, string>, number | undefined, number, { capacity: number; source: string }][] = [
    ['default: minimumHealthCapacity', {}, undefined, 1, { capacity: 1, source: 'minimumHealthCapacity' }],
    ['default with a lower capacity', {}, undefined, 0.5, { capacity: 0.5, source: 'minimumHealthCapacity' }],
    ['the flag over the strategy', {}, 0.25, 1, { capacity: 0.25, source: 'flag' }],
    ['the flag 0: no protection', {}, 0, 1, { capacity: 0, source: 'flag' }],
    ['the label over the flag', { [UNHEALTHY_KILL_FLOOR_LABEL]: '0.75' }, 0.25, 1, { capacity: 0.75, source: 'label' }],
    ['the label 0 over the strategy', { [UNHEALTHY_KILL_FLOOR_LABEL]: '0' }, undefined, 1, { capacity: 0, source: 'label' }],
    ['an unreadable label is ignored (the API refuses it; a stored one cannot stop the core)', { [UNHEALTHY_KILL_FLOOR_LABEL]: 'all' }, 0.5, 1, { capacity: 0.5, source: 'flag' }],
    ['other labels do not matter', { PACER_HEALTH_FLOOR: '0' }, undefined, 1, { capacity: 1, source: 'minimumHealthCapacity' }],
  ];
  for (const [name, labels, flag, minimumHealthCapacity, expected] of cases) {
    const app = makeApp({ labels, upgrade: { minimumHealthCapacity, maximumOverCapacity: 1 } });
    t.same(floorCapacity(app, flag), expected, name);
  }
});

t.test('unhealthyKillFloor: ceil(target × capacity) as Marathon rounds minimumHealthCapacity, at most target − 1', async (t) => {
  const cases: [number, number, number, string][] = [
    [10, 1, 9, 'capacity 1: every instance but one (one can always be replaced)'],
    [10, 0.5, 5, 'half'],
    [10, 0.85, 9, 'ceil(8.5)'],
    [10, 0.81, 9, 'ceil(8.1)'],
    [3, 0.5, 2, 'ceil(1.5)'],
    [4, 0.5, 2, 'exact'],
    [5, 0.6, 3, 'exact'],
    [10, 0, 0, 'capacity 0: no floor'],
    [2, 1, 1, 'two instances: one may go'],
    [1, 1, 0, 'a single instance is always replaceable'],
    [0, 1, 0, 'suspended'],
    [100_000, 1, 99_999, 'the largest app'],
  ];
  for (const [target, capacity, expected, name] of cases) t.equal(unhealthyKillFloor(target, capacity), expected, `${target} × ${capacity}: ${name}`);
});

t.test('killsWithinFloor: counting kills go while the count stays at the floor, the others always go', async (t) => {
  const cases: [string, number, number, boolean[], boolean[]][] = [
    ['a storm of 10 with floor 9: the first goes, nine wait', 10, 9, Array<boolean>(10).fill(true), [true, ...Array<boolean>(9).fill(false)]],
    ['a storm at floor 0: all go (Marathon)', 10, 0, Array<boolean>(10).fill(true), Array<boolean>(10).fill(true)],
    ['one bad instance among healthy ones goes', 10, 9, [true], [true]],
    ['already at the floor: it waits', 9, 9, [true], [false]],
    ['below the floor (a crash took one): it waits', 7, 9, [true], [false]],
    ['an instance that never counted goes (its kill cannot lower the count)', 9, 9, [false], [true]],
    ['mixed, in order: non-counting kills pass, counting ones until the floor', 6, 4, [true, false, true, true, false], [true, true, true, false, true]],
    ['nothing due', 5, 2, [], []],
  ];
  for (const [name, counted, floor, candidates, expected] of cases) t.same(killsWithinFloor(counted, floor, candidates), expected, name);
});

t.test('floorLabelViolations: a label that is not a share from 0 to 1 is a 422 detail at its path', async (t) => {
  const cases: [string | undefined, boolean][] = [[undefined, false], ['0.5', false], ['1', false], ['1.5', true], ['half', true], ['', true]];
  for (const [value, refused] of cases) {
    const app = makeApp({ labels: value === undefined ? {} : { [UNHEALTHY_KILL_FLOOR_LABEL]: value } });
    const details = floorLabelViolations(app);
    t.equal(details.length, refused ? 1 : 0, `${JSON.stringify(value)}`);
    if (refused) t.equal(details[0].path, `/labels/${UNHEALTHY_KILL_FLOOR_LABEL}`);
  }
});
