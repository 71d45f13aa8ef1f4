import t from 'tap';
import { runCleanup } from '../../bench/lib/run-cleanup';

// A benchmark's clean-up is one function, the same at the end, on a failure and on Ctrl-C
// (bench/lib/run-cleanup.ts); test/bench/interrupt.test.ts signals the benchmarks themselves.

t.test('a run\'s clean-up runs once, however often it is called', async (t) => {
  let runs = 0;
  const cleanup = runCleanup(async () => {
    runs++;
    await new Promise((resolve) => setImmediate(resolve));
  });
  await Promise.all([cleanup(), cleanup()]);
  await cleanup();
  t.equal(runs, 1);
  const failing = runCleanup(() => Promise.reject(new Error('x')));
  await t.resolves(failing(), 'a failed clean-up is reported, not thrown');
});
