import t from 'tap';
import { keepStoreFile } from '../../src/runtime/restore-store-file';
import type { RuntimeStore } from '../../src/runtime/runtime-store';
import type { StoreLock } from '../../src/runtime/store-lock';
import { captureLog } from '../harness/log-capture';

/*
 * The store file keeper (restore-store-file.ts): before each API change and every second it asks
 * the store to write a removed file again, only while this pacer holds the lock, and says so in
 * the log — `warn` per file written again, `error` once per cause while it cannot.
 */

type Step = { readonly removed: boolean; readonly lockHeld?: boolean; readonly fails?: string; readonly said: readonly string[] };

t.test('the keeper: one log line per restore, one per cause of failure, none while nothing is removed', async (t) => {
  const steps: readonly Step[] = [
    { removed: false, said: [] },
    { removed: true, lockHeld: true, said: ['warn: wrote it again from the open store (4096 bytes)'] },
    { removed: true, lockHeld: false, said: ['error: is not this pacer\'s any more'] },
    { removed: true, lockHeld: false, said: [] },
    { removed: false, said: [] },
    { removed: true, lockHeld: true, fails: 'ENOSPC: no space left on device', said: ['error: could not be written again: ENOSPC'] },
    { removed: true, lockHeld: true, fails: 'ENOSPC: no space left on device', said: [] },
    { removed: true, lockHeld: true, said: ['warn: wrote it again'] },
    { removed: true, lockHeld: false, said: ['error: is not this pacer\'s any more'] },
  ];
  let step: Step = steps[0];
  const store = {
    restoreRemovedFile: (mayRestore: () => boolean): number | undefined => {
      if (!step.removed || !mayRestore()) return undefined;
      if (step.fails !== undefined) throw new Error(step.fails);
      return 4096;
    },
  } as unknown as RuntimeStore;
  const lock = { holdsOrRetakes: () => step.lockHeld === true } as unknown as StoreLock;
  const captured = captureLog('json', 'debug');
  const keeper = keepStoreFile(store, '/data/pacer.db', lock, captured.log);
  t.teardown(() => keeper.stop());
  let seen = 0;
  for (const [i, s] of steps.entries()) {
    step = s;
    keeper.check();
    const records = captured.records().slice(seen);
    seen += records.length;
    const said = records.map((r) => `${r.level === 40 || r.level === 'warn' ? 'warn' : 'error'}: ${String(r.msg)}`);
    t.equal(said.length, s.said.length, `step ${i}: ${s.said.length} line(s)`);
    for (const [k, want] of s.said.entries()) {
      const [level, text] = want.split(': ');
      t.ok(said[k]?.startsWith(`${level}: the store file /data/pacer.db was removed while pacer ran`), `step ${i}: ${level}`);
      t.ok(said[k]?.includes(text.replace(/^: /, '')), `step ${i}: says "${text}"`);
    }
  }
  t.ok(captured.records().every((r) => r.component === 'store'), 'component store');
});

t.test('a store that cannot restore (ZooKeeper) gets no checks', async (t) => {
  const captured = captureLog();
  const keeper = keepStoreFile({} as RuntimeStore, '/x', {} as StoreLock, captured.log);
  keeper.check();
  keeper.stop();
  t.same(captured.lines(), []);
});
