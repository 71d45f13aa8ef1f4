import t from 'tap';
import type { MarathonEvent } from '../../../src/scheduler/model/events';
import { RUN_DECISIONS_KEPT_MAX, RunRecorder } from '../../../sim/runner/run-recorder';
import type { Decision, DecisionReader } from '../../../src/runtime/decision-reader';

const event: MarathonEvent = { eventType: 'app_terminated_event', timestamp: '2026-01-01T00:00:00.000Z', appId: '/a' };

// Events are kept only for expectations that count them; the counts per type are kept always.
const cases = [
  { name: 'default: every event kept', recorder: () => new RunRecorder(), kept: 2 },
  { name: 'keepEvents false: none kept', recorder: () => new RunRecorder(undefined, false), kept: 0 },
];
for (const c of cases) {
  t.test(`RunRecorder events: ${c.name}`, async (t) => {
    const r = c.recorder();
    r.onEvent(0, event);
    r.onEvent(5, event);
    t.equal(r.events.length, c.kept);
    t.same(r.eventCounts, { app_terminated_event: 2 }, 'counted either way');
  });
}

t.test('RunRecorder decisions: the first RUN_DECISIONS_KEPT_MAX kept, the rest counted and still told to listeners', async (t) => {
  // Found trying a file within every other bound (100,000 instances failing checks every second):
  // a decision per step, kept, grew the heap by hundreds of MB per million steps.
  const decision = { kind: 'deleted', runSpecId: '/a' } as unknown as Decision;
  const reader = { read: () => decision, sweep: () => [] } as unknown as DecisionReader;
  const r = new RunRecorder(reader);
  let heard = 0;
  r.onDecision(() => void heard++);
  for (let i = 0; i < RUN_DECISIONS_KEPT_MAX + 7; i++) r.onEvent(i, event);
  t.equal(r.decisions.length, RUN_DECISIONS_KEPT_MAX, 'kept up to the bound');
  t.equal(r.decisionsNotKept, 7, 'the rest counted');
  t.equal(heard, RUN_DECISIONS_KEPT_MAX + 7, 'every one told to the listeners');
  t.equal(r.decisions[0].atMs, 0, 'the first ones, in order');
});
