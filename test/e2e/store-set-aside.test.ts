import { join } from 'node:path';
import seedrandom from 'seedrandom';
import t from 'tap';
import { HeapLoop } from '../../src/scheduler/kernel/heap-loop';
import type { SchedulerInput } from '../../src/scheduler/model/inputs';
import { Scheduler } from '../../src/scheduler/scheduler';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { makeApp, versionAt } from '../builders/run-spec-builders';
import { RecordingDriver } from '../harness/recording-driver';
import { tempDir, within } from './e2e-kit';
import { PATIENCE_MS } from '../harness/wait';
import { spawnMain, startupPort } from './main-kit';

/**
 * Issue 11, end to end: a store holding the record that made pacer unstartable (`instances:
 * 4294967296`, stored with its deployment before the core failed on it: `pacer: cannot start:
 * Invalid array length`). `npm start` on it now serves, says on stderr what it set aside, lists
 * it at `GET /pacer/v1/set-aside`, and runs the rest.
 */
t.test('npm start on a store with the issue\'s record: serves, reports it on stderr and through the API', async (t) => {
  const dir = tempDir(t);
  const storePath = join(dir, 'pacer.db');
  writeBadStore(storePath);
  const main = spawnMain(t, ['--port', '0', '--store', storePath, '--sandbox', join(dir, 'sandboxes')]);
  const port = await startupPort(main);
  t.match(main.stderr(), /"level":40,.*"component":"store","kind":"runSpec","key":"\/big",.*"msg":"stored runSpec \/big set aside, not loaded: \$\.instances: 4294967296 is outside \[0, 100000\][^"]* \(kept in the store's set-aside records, never deleted; GET \/pacer\/v1\/set-aside\)"/, 'a warning in the log');
  const base = `http://127.0.0.1:${port}`;
  const report = await (await fetch(`${base}/pacer/v1/set-aside`, { signal: AbortSignal.timeout(PATIENCE_MS) })).json() as { setAside: { kind: string; key: string }[] };
  t.ok(report.setAside.some((r) => r.kind === 'runSpec' && r.key === '/big'), JSON.stringify(report));
  const apps = await (await fetch(`${base}/v2/apps`, { signal: AbortSignal.timeout(PATIENCE_MS) })).json() as { apps: { id: string }[] };
  t.same(apps.apps.map((a) => a.id), ['/kept'], 'the rest runs; the bad app is not served');
  main.child.kill('SIGTERM');
  t.same(await within(main.exited, 'exit after SIGTERM', 10_000), { code: 0, signal: null });
});

/** A store where /kept exists and /big (4294967296 instances) was stored before the core failed on it. */
function writeBadStore(path: string): void {
  const store = SqliteStore.open(path);
  const loop = new HeapLoop<SchedulerInput>();
  const rng = seedrandom('set-aside-e2e');
  const scheduler = new Scheduler({
    clock: { nowMs: () => Date.now() }, random: { next: () => rng() },
    timers: { schedule: (dueMs, input) => loop.schedule(dueMs, input), cancel: (id) => loop.cancel(id) },
    driver: new RecordingDriver(), store, prober: { probe: () => undefined },
  }, { maxTotalInstances: Number.MAX_SAFE_INTEGER }); // as pacer was then: no bound on all instances
  scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/kept', instances: 0, version: versionAt(1) }) });
  try {
    scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/big', instances: 4294967296, version: versionAt(2) }) });
  } catch {
    // "Invalid array length", after /big was stored: the state the issue found.
  } finally {
    store.close();
  }
}
