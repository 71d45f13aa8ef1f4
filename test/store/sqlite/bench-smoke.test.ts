import t from 'tap';
import { runStoreBench } from '../../../bench/store';
import { tempDir } from './store-fixture';

// A smoke run of bench/store.ts at a tiny duration, so it cannot rot. No timing is asserted:
// figures are the benchmark's job, and these machines are noisy.

t.test('bench:store saves batches through a real SqliteStore and reports its figures', async (t) => {
  const dir = tempDir(t);
  for (const synchronous of ['NORMAL', 'FULL'] as const) {
    const r = runStoreBench(dir, synchronous, 10, 0.05);
    t.ok(r.calls > 0 && r.callsPerSec > 0, `${synchronous}: calls made and rated`);
    t.equal(r.instancesPerSec > 0 && r.p99Us >= r.p50Us, true, `${synchronous}: per-instance rate and percentiles`);
  }
});
