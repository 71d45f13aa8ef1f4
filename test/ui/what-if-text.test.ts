import t from 'tap';
import { durationText, simulateText, waitingText, whatIfHeadline, type WhatIfAnswer } from '../../ui/src/model/what-if-text';

const base: WhatIfAnswer = { simulate: 'PT30M', deployment: 'finished', finishedAfterMs: 2600, launched: [], killed: [], waiting: [] };

t.test('the what-if headline says whether and when the change would finish', async (t) => {
  const cases: [Partial<WhatIfAnswer>, string][] = [
    [{}, 'Would finish after 2.6 s'],
    [{ finishedAfterMs: 185_000 }, 'Would finish after 3 min 5 s'],
    [{ deployment: 'running' }, 'Would not finish within 30 min'],
    [{ deployment: 'running', simulate: 'PT1H30M' }, 'Would not finish within 1 h 30 min'],
    [{ deployment: 'failed', failure: 'cancelled' }, 'Would fail after 2.6 s: cancelled'],
    [{ deployment: 'none' }, 'Would change nothing: no deployment'],
    [{ deployment: 'running', stoppedBy: 'wall-time' }, 'Would not finish within 30 min (the simulation stopped early: its time budget ran out)'],
  ];
  for (const [over, text] of cases) t.equal(whatIfHeadline({ ...base, ...over }), text);
  t.equal(durationText(60_000), '1 min');
  t.equal(simulateText('PT90S'), '1 min 30 s');
});

t.test('what waits is said per app with the reasons, most frequent first', async (t) => {
  t.same(waitingText({ ...base, waiting: [{ runSpecId: '/web', instances: 2, reasons: { InsufficientMemory: 3, InsufficientCpus: 60 } }, { runSpecId: '/x', instances: 1, reasons: {} }] }), [
    '/web: 2 instances wait — not enough cpus on the agent (60 offers); not enough memory on the agent (3 offers)',
    '/x: 1 instance waits — no offer matched yet',
  ]);
});
