import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import seedrandom from 'seedrandom';
import type { Test } from 'tap';
import { tempDir as harnessTempDir } from '../../harness/temp-dir';
import type { StoredState, Store } from '../../../src/scheduler/ports/store';
import { SqliteStore, type SqliteStoreOptions } from '../../../src/store/sqlite/sqlite-store';
import { Instance } from '../../../src/scheduler/model/instance';
import { HeapLoop } from '../../../src/scheduler/kernel/heap-loop';
import type { SchedulerInput } from '../../../src/scheduler/model/inputs';
import { Scheduler } from '../../../src/scheduler/scheduler';
import type { SchedulerOptions } from '../../../src/scheduler/scheduler-options';
import { RecordingDriver } from '../../harness/recording-driver';

/** A fresh directory under the OS temp dir, removed when the test ends. */
export function tempDir(t: Test): string {
  return harnessTempDir(t, 'pacer-store-');
}

/** A path for a store file in a fresh temp dir (the file does not exist yet). */
export function tempStorePath(t: Test): string {
  return join(tempDir(t), 'pacer.db');
}

/** A copy of the store file `from` in a fresh temp dir, that one case may change or damage. */
export function storeCopy(t: Test, from: string): string {
  const path = tempStorePath(t);
  copyFileSync(from, path);
  return path;
}

/** Runs `fn` on a plain connection to a closed store file (to fake other writers, or damage rows), closed after. */
export function withRawDb<T>(path: string, fn: (db: Database.Database) => T): T {
  const db = new Database(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Open a store that is closed when the test ends (closing twice is harmless). */
export function openStore(t: Test, path: string, options?: SqliteStoreOptions): SqliteStore {
  const store = SqliteStore.open(path, options);
  t.teardown(() => store.close());
  return store;
}

/** Write everything `state` holds into `store`, through the Store methods only. */
export function copyState(state: StoredState, store: Store): void {
  if (state.root !== undefined) store.saveRoot(state.root);
  for (const spec of state.runSpecs) store.saveRunSpec(spec);
  for (const spec of state.versions) store.saveRunSpecVersion(spec);
  for (const root of state.rootVersions) store.saveRootVersion(root);
  for (const d of state.deployments) store.saveDeployment(d);
  store.saveInstances(state.instances.map((i) => Instance.from(i)));
  if (state.frameworkId !== undefined) store.saveFrameworkId(state.frameworkId);
}

/**
 * The first difference between two values, as a path and a reason, or undefined when they are
 * exactly equal in the codec's sense: same kinds (plain object, array, Map, Set), Map and Set
 * entries in the same order, numbers equal by `Object.is` (so -0 ≠ 0 and NaN = NaN), and an
 * object field holding `undefined` the same as an absent one. Written independently of the codec.
 */
export function exactDiff(actual: unknown, expected: unknown, at = '$'): string | undefined {
  if (typeof actual !== typeof expected) return `${at}: ${typeof actual} vs ${typeof expected}`;
  if (typeof expected !== 'object' || expected === null || actual === null) {
    return Object.is(actual, expected) ? undefined : `${at}: ${String(actual)} vs ${String(expected)}`;
  }
  const a = actual as object;
  // A Map is a Map whatever its class: the group tree's maps are PathMaps (a Map subclass), and
  // the codec reads every Map back as a plain Map.
  if (expected instanceof Map && a instanceof Map) return entriesDiff([...(a as Map<unknown, unknown>)], [...expected], `${at}<map>`);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(expected)) return `${at}: different prototypes`;
  if (expected instanceof Set) return entriesDiff([...(a as Set<unknown>)], [...expected], `${at}<set>`);
  if (Array.isArray(expected)) return entriesDiff(a as unknown[], expected, at);
  return fieldsDiff(a as Record<string, unknown>, expected as Record<string, unknown>, at);
}

function entriesDiff(actual: readonly unknown[], expected: readonly unknown[], at: string): string | undefined {
  if (actual.length !== expected.length) return `${at}: length ${actual.length} vs ${expected.length}`;
  for (let i = 0; i < expected.length; i++) {
    const d = exactDiff(actual[i], expected[i], `${at}[${i}]`);
    if (d !== undefined) return d;
  }
  return undefined;
}

function fieldsDiff(actual: Record<string, unknown>, expected: Record<string, unknown>, at: string): string | undefined {
  const defined = (o: Record<string, unknown>): string[] => Object.keys(o).filter((k) => o[k] !== undefined).sort();
  const ka = defined(actual);
  const ke = defined(expected);
  if (ka.join('\u0000') !== ke.join('\u0000')) return `${at}: fields [${ka.join(', ')}] vs [${ke.join(', ')}]`;
  for (const k of ke) {
    const d = exactDiff(actual[k], expected[k], `${at}.${k}`);
    if (d !== undefined) return d;
  }
  return undefined;
}

/**
 * A core started on `store` (it recovers what the store holds), with a recording driver, timers on
 * a heap loop nobody runs, no probes, and ids drawn from `seed`; `nowMs` is its clock.
 */
export function schedulerOnStore(
  store: Store, seed: string, nowMs: () => number, driver = new RecordingDriver(), options: Partial<SchedulerOptions> = {},
): { readonly scheduler: Scheduler; readonly driver: RecordingDriver } {
  const loop = new HeapLoop<SchedulerInput>();
  const rng = seedrandom(seed);
  const scheduler = new Scheduler({
    clock: { nowMs },
    random: { next: () => rng() },
    timers: { schedule: (dueMs, input) => loop.schedule(dueMs, input), cancel: (id) => loop.cancel(id) },
    driver,
    store,
    prober: { probe: () => undefined },
  }, options);
  return { scheduler, driver };
}
