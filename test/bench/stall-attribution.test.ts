import t from 'tap';
import { attributeStretch, summarizeStretches, type Span, type StretchCause } from '../../bench/lib/stall-attribution';

// bench:scale-lag names the main cause of every blocked stretch: these are the rules it applies.

const span = (startMs: number, ms: number, label: string): Span => ({ startMs, ms, label });

t.test('a stretch is blamed on what took most of it, or on the CPU the process did not get', async (t) => {
  const cases: { name: string; wallMs: number; cpuMs: number; spans: Span[]; cause: StretchCause; gcMs: number; inputMs: number }[] = [
    { name: 'one long input, on a CPU all the time', wallMs: 100, cpuMs: 98, spans: [span(0, 95, 'input:timer:continueChanges')], cause: 'input', gcMs: 0, inputMs: 95 },
    { name: 'a scavenge inside an input takes most of it', wallMs: 100, cpuMs: 100, spans: [span(0, 90, 'input:status'), span(10, 70, 'gc:minor')], cause: 'GC', gcMs: 70, inputMs: 90 },
    { name: 'the same input, but the process got a fifth of the wall time on a CPU', wallMs: 100, cpuMs: 20, spans: [span(0, 95, 'input:offers')], cause: 'no CPU', gcMs: 0, inputMs: 95 },
    { name: 'a CPU share just at the bound counts as on a CPU', wallMs: 100, cpuMs: 50, spans: [span(0, 95, 'input:offers')], cause: 'input', gcMs: 0, inputMs: 95 },
    { name: 'the simulated cluster outweighs the core', wallMs: 80, cpuMs: 80, spans: [span(0, 20, 'input:offers'), span(20, 55, 'cluster')], cause: 'cluster', gcMs: 0, inputMs: 20 },
    { name: 'nothing known ran: other work (HTTP, pings)', wallMs: 60, cpuMs: 60, spans: [], cause: 'other', gcMs: 0, inputMs: 0 },
    { name: 'only the overlap of a span with the stretch counts', wallMs: 100, cpuMs: 100, spans: [span(-400, 430, 'input:offers'), span(40, 60, 'gc:major')], cause: 'GC', gcMs: 60, inputMs: 30 },
    { name: 'spans wholly outside are ignored', wallMs: 100, cpuMs: 100, spans: [span(-50, 50, 'gc:minor'), span(100, 30, 'input:status')], cause: 'other', gcMs: 0, inputMs: 0 },
  ];
  for (const c of cases) {
    const a = attributeStretch({ startMs: 0, wallMs: c.wallMs, cpuMs: c.cpuMs, spans: c.spans });
    t.equal(a.cause, c.cause, `${c.name}: cause`);
    t.equal(a.gcMs, c.gcMs, `${c.name}: GC overlap`);
    t.equal(a.inputMs, c.inputMs, `${c.name}: input overlap`);
  }
});

t.test('the longest input in a stretch is named with its whole duration', async (t) => {
  const a = attributeStretch({ startMs: 1000, wallMs: 100, cpuMs: 100, spans: [span(990, 40, 'input:status'), span(1030, 65, 'input:timer:continueOffers (250 events)')] });
  t.equal(a.longestInput, 'input:timer:continueOffers (250 events)');
  t.equal(a.longestInputMs, 65);
  t.equal(a.inputMs, 95, '30 ms of the first (its overlap) and all 65 of the second');
});

t.test('the summary counts stretches per cause, the most time first', async (t) => {
  const base = { startMs: 0, cpuMs: 0, gcMs: 0, inputMs: 0, clusterMs: 0, longestInput: '', longestInputMs: 0 };
  t.equal(summarizeStretches([]), 'none');
  t.equal(
    summarizeStretches([{ ...base, wallMs: 60, cause: 'GC' }, { ...base, wallMs: 200, cause: 'no CPU' }, { ...base, wallMs: 70, cause: 'GC' }]),
    'no CPU ×1 (200 ms, longest 200), GC ×2 (130 ms, longest 70)',
  );
});

t.test('a stretch just over the threshold never prints as at it: its wall time is rounded up to 0.1 ms', async (t) => {
  t.equal(attributeStretch({ startMs: 0, wallMs: 50.04, cpuMs: 50, spans: [] }).wallMs, 50.1);
  t.equal(attributeStretch({ startMs: 0, wallMs: 62.3, cpuMs: 60, spans: [] }).wallMs, 62.3);
});
