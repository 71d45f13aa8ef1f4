import t from 'tap';
import type { InstanceChangedEvent } from '../../../../src/scheduler/model/events';
import type { Condition } from '../../../../src/scheduler/model/condition';
import { BackoffOracle } from '../../../../sim/invariants/backoff-oracle';
import { makeApp } from '../../../builders/run-spec-builders';

const spec = makeApp({ id: '/crash', backoff: { initialMs: 1000, factor: 2, maxMs: 5000 } });
const specOf = (): typeof spec => spec;

function changed(instanceId: string, condition: Condition): InstanceChangedEvent {
  return {
    eventType: 'instance_changed_event', timestamp: '2026-01-01T00:00:00.000Z', instanceId, condition,
    runSpecId: '/crash', agentId: null, host: null, runSpecVersion: spec.version,
  };
}

/** One failure step: the instance ends and is queued again within the same step. */
function fail(o: BackoffOracle, id: string, atMs: number): void {
  o.onEvent(changed(id, 'Failed'), atMs, specOf);
  o.onEvent(changed(id, 'Scheduled'), atMs, specOf);
  o.endStep();
}

function started(o: BackoffOracle, id: string): void {
  o.onEvent(changed(id, 'Scheduled'), 0, specOf);
  o.onEvent(changed(id, 'Running'), 0, specOf);
  o.endStep();
}

t.test('delays grow by the factor up to the cap, and launches before the deadline are flagged', async (t) => {
  const o = new BackoffOracle();
  started(o, 'i1');
  const cases: [number, number][] = [[10_000, 1000], [20_000, 2000], [30_000, 4000], [40_000, 5000], [50_000, 5000]];
  for (const [atMs, delayMs] of cases) {
    fail(o, 'i1', atMs);
    t.match(o.checkLaunch(spec, atMs + delayMs - 1), /before its backoff deadline/, `launch 1 ms early after the failure at ${atMs}`);
    t.equal(o.checkLaunch(spec, atMs + delayMs), undefined, `launch at the deadline ${atMs + delayMs}`);
  }
});

t.test('a user kill relaunches without delay; resetDelay and a new config version start over', async (t) => {
  const o = new BackoffOracle();
  started(o, 'i1');
  o.markUserKilled(['i1']);
  fail(o, 'i1', 1000);
  t.equal(o.checkLaunch(spec, 1000), undefined, 'user kill: no delay');
  fail(o, 'i1', 2000);
  t.ok(o.checkLaunch(spec, 2000), 'a real failure afterwards counts');
  o.reset('/crash');
  t.equal(o.checkLaunch(spec, 2000), undefined, 'resetDelay');
  fail(o, 'i1', 3000);
  const changedConfig = { ...spec, versionInfo: { lastScalingAt: 'x', lastConfigChangeAt: '2026-02-01T00:00:00.000Z' } };
  t.equal(o.checkLaunch(changedConfig, 3000), undefined, 'a new config version has no delay');
});

t.test('an instance that ends without being queued again (scale-down, delete) is no failure', async (t) => {
  const o = new BackoffOracle();
  started(o, 'i1');
  o.onEvent(changed('i1', 'Killed'), 1000, specOf);
  o.endStep();
  o.onEvent(changed('i1', 'Scheduled'), 5000, specOf);
  o.endStep();
  t.equal(o.checkLaunch(spec, 5000), undefined);
});

t.test('a goal change re-announcing Scheduled is not a second failure (found by the swarm, seed 188)', async (t) => {
  const o = new BackoffOracle();
  started(o, 'i1');
  o.onEvent(changed('i1', 'Failed'), 1000, specOf);
  o.onEvent(changed('i1', 'Scheduled'), 1000, specOf);
  o.onEvent(changed('i1', 'Scheduled'), 1000, specOf);
  o.endStep();
  t.equal(o.checkLaunch(spec, 2000), undefined, 'one failure: the initial delay of 1 s');
});

t.test('a resident instance killed and queued again under a new version (replaced in place) is no failure', async (t) => {
  // Found by the swarm once it drew resident apps: a resident instance replaced in place by a new
  // config is killed and relaunched on its reservation at once; the oracle took it for a failure.
  const residentSpec = { ...spec, resident: true };
  const residentOf = (): typeof residentSpec => residentSpec;
  const next = '2026-01-01T00:00:10.000Z';
  const residentNextConfig = { ...residentSpec, version: next, versionInfo: { lastScalingAt: next, lastConfigChangeAt: next } };
  const residentOfNextConfig = (): typeof residentSpec => residentNextConfig;
  // `killed`: the scheduler sent a kill for it (a KILL call the runner tells the oracle of).
  const cases: { name: string; specOf: () => typeof spec; version: string; killed: boolean; ended: Condition; counted: boolean }[] = [
    { name: 'resident, new config, killed (replaced in place)', specOf: residentOfNextConfig, version: next, killed: true, ended: 'Killed', counted: false },
    // Swarm seed 20992: a crash-looping task failed during the kill that replaced it.
    { name: 'resident, new config, its task failed before the kill ended it', specOf: residentOfNextConfig, version: next, killed: true, ended: 'Failed', counted: false },
    // Swarm seed 204: it failed on its own, then was relaunched under the new config.
    { name: 'resident, new config, failed on its own', specOf: residentOfNextConfig, version: next, killed: false, ended: 'Failed', counted: true },
    // Swarm seed 21785: a scale gives a new version of the same config; a failure then is one.
    { name: 'resident, new version of the same config, failed', specOf: residentOf, version: next, killed: false, ended: 'Failed', counted: true },
    // Swarm seed 21672: killed as unhealthy under the current config, queued under a scale's version.
    { name: 'resident, new version of the same config, killed', specOf: residentOf, version: next, killed: true, ended: 'Killed', counted: true },
    { name: 'resident, same version (an unhealthy kill)', specOf: residentOf, version: spec.version, killed: true, ended: 'Killed', counted: true },
    { name: 'resident, same version, failed (a crash)', specOf: residentOf, version: spec.version, killed: false, ended: 'Failed', counted: true },
    { name: 'not resident, new config, killed (replaced: a new instance, not this one, runs the new config)', specOf, version: next, killed: true, ended: 'Killed', counted: true },
  ];
  for (const c of cases) {
    const o = new BackoffOracle();
    started(o, 'i1');
    if (c.killed) o.markSchedulerKill('i1');
    o.onEvent(changed('i1', c.ended), 10_000, c.specOf);
    o.onEvent({ ...changed('i1', 'Scheduled'), runSpecVersion: c.version }, 10_000, c.specOf);
    o.endStep();
    const late = o.checkLaunch(c.specOf(), 10_500);
    if (c.counted) t.match(late, /before its backoff deadline/, `${c.name}: a failure`);
    else t.equal(late, undefined, `${c.name}: no delay`);
  }
});
