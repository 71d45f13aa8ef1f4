import t from 'tap';
import type { MarathonEvent } from '../../../src/scheduler/model/events';
import { RunRecorder } from '../../../sim/runner/run-recorder';

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
