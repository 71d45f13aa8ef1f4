import t from 'tap';
import { runSseMemory } from '../../bench/sse-memory';

// A tiny run of the event-stream memory measurement (issue 11.5), so that it cannot rot: the slow
// subscribers are dropped, the readers stay and get every event. Memory figures are the
// measurement's job at full size (its numbers are in bench/README.md); none is asserted here.

t.test('sse-memory: slow subscribers are dropped, readers stay attached and read every event', { timeout: 240_000 }, async (t) => {
  const r = await runSseMemory({
    subscribers: 12, slow: 4, rate: 200, eventBytes: 16 * 1024, steadySeconds: 1, maxGrowthMib: 1024, dropTimeoutSeconds: 120,
    bufferBytes: 256 * 1024,
  });
  t.strictSame(r.problems, [], 'no problem reported');
  t.ok(r.passed);
  t.equal(r.readersLeft, 8, 'the 8 readers are still attached');
  t.ok(r.droppedAfterS !== undefined, 'the 4 slow ones were dropped');
  t.ok(r.framesPerReader.min >= r.published, `every reader got every published event (${r.framesPerReader.min} frames ≥ ${r.published})`);
  t.ok(r.samples.some((s) => s.phase === 'steady') && r.rssMib.peak > 0, 'memory sampled in every phase');
});
