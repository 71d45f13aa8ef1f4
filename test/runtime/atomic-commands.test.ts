import seedrandom from 'seedrandom';
import t from 'tap';
import { RealTimeLoop } from '../../src/runtime/real-time-loop';
import type { SchedulerInput } from '../../src/scheduler/model/inputs';
import type { Store } from '../../src/scheduler/ports/store';
import { Scheduler } from '../../src/scheduler/scheduler';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { makeApp, versionAt } from '../builders/run-spec-builders';
import { START_MS } from '../harness/core-harness';
import { RecordingDriver } from '../harness/recording-driver';
import { openStore, tempStorePath } from '../store/sqlite/store-fixture';

/*
 * One API command writes several records (root group, run spec, versions, deployment,
 * instances). The crash test (test/e2e/local-crash.test.ts) found that a `kill -9` between two of
 * them left, after the restart, an app in the root group that the core did not run, or ran with
 * its old instance count, forever. The runtime loop now handles each command in one store
 * transaction. Here the process "dies" at each write of a command in turn (the store throws, the
 * file is reopened as after a restart): the recovered state is the state before the command or
 * the state after it, never a mix.
 */

/** When a {@link dyingStore} dies: writes are counted once `armed`, and the `dieAt`-th throws (0: never). */
interface Death {
  armed: boolean;
  writes: number;
  readonly dieAt: number;
}

/** `store` whose writes are counted once armed; the `dieAt`-th write throws, as if the process died there. */
function dyingStore(store: SqliteStore, death: Death): Store {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = String(name);
      if (!/^(save|delete)/.test(method)) return value.bind(target);
      return (...args: unknown[]) => {
        if (death.armed && ++death.writes === death.dieAt) throw new Error(`died at write ${death.dieAt} (${method})`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** A core on `store` behind a runtime loop whose commands are atomic on `sqlite` (as openRuntime composes it). */
function runtimeOn(sqlite: SqliteStore, store: Store): { loop: RealTimeLoop; scheduler: Scheduler } {
  const rng = seedrandom('atomic');
  const scheduler = new Scheduler({
    clock: { nowMs: () => START_MS }, random: { next: () => rng() }, timers: { schedule: () => 0, cancel: () => undefined },
    driver: new RecordingDriver(), store, prober: { probe: () => undefined },
  });
  const loop = new RealTimeLoop({ atomically: (fn) => sqlite.atomically(fn) });
  loop.attach(scheduler);
  return { loop, scheduler };
}

/** What must be consistent: the apps of the root group and the run specs the core runs (with their instance counts), deployments, instances. */
function summary(scheduler: Scheduler): string {
  const rootApps = [...scheduler.runSpecs()].map((s) => s.id).sort();
  const root = JSON.stringify(scheduler.root(), (_k, v: unknown) => (v instanceof Map ? [...v.entries()] : v));
  const apps = rootApps.map((id) => `${id}:${scheduler.runSpec(id)?.instances}/${scheduler.instances(id).length}`);
  return `${apps.join(',')} root-has:${['/a', '/b'].filter((id) => root.includes(`"${id}"`)).join('+')} deployments:${scheduler.deployments().length}`;
}

const BASE = makeApp({ id: '/a', instances: 3 });
const COMMANDS: readonly { name: string; command: SchedulerInput }[] = [
  { name: 'create an app', command: { type: 'putRunSpec', spec: makeApp({ id: '/b', instances: 2, version: versionAt(1) }) } },
  { name: 'scale an app down', command: { type: 'scale', runSpecId: '/a', instances: 1, force: true } },
  { name: 'delete an app', command: { type: 'deleteRunSpec', runSpecId: '/a', force: true } },
];

for (const { name, command } of COMMANDS) {
  t.test(`${name}: a crash at any of its writes leaves the state before or after it`, async (t) => {
    /** The state after `BASE`, then `command` with the dying store, then a restart. */
    const run = (death: Death): string => {
      const path = tempStorePath(t);
      const sqlite = openStore(t, path);
      const first = runtimeOn(sqlite, sqlite);
      first.loop.submit({ type: 'putRunSpec', spec: BASE });
      const before = summary(first.scheduler);
      const dying = runtimeOn(sqlite, dyingStore(sqlite, death));
      death.armed = true;
      try {
        dying.loop.submit(command);
      } catch {
        // the process died here
      }
      sqlite.close();
      const again = openStore(t, path);
      const after = summary(runtimeOn(again, again).scheduler);
      again.close();
      return `${before}|${after}`;
    };
    const total: Death = { armed: false, writes: 0, dieAt: 0 };
    const [initial, complete] = run(total).split('|');
    t.not(complete, initial, `the command changes the state (${initial} → ${complete})`);
    t.ok(total.writes > 1, `the command writes ${total.writes} records`);
    for (let dieAt = 1; dieAt <= total.writes; dieAt++) {
      const [before, after] = run({ armed: false, writes: 0, dieAt }).split('|');
      t.ok(after === before || after === complete, `died at write ${dieAt}: ${after} is the state before (${before}) or after (${complete})`);
    }
  });
}
