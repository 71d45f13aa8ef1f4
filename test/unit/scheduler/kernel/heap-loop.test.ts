import t from 'tap';
import { HeapLoop } from '../../../../src/scheduler/kernel/heap-loop';

/** A tiny deterministic generator (xorshift32), so that every run checks the same sequences. */
function xorshift(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

interface Posted {
  readonly dueMs: number;
  readonly seq: number;
  cancelled: boolean;
  /** Queued by `schedule` (cancellable), not by `post`. */
  readonly cancellable: boolean;
}

// The loop's order is (dueMs, seq) whatever path an entry takes (heap, or the FIFO of entries due
// at the instant being handled). Each case drives the loop as the runner does — handle the next
// entry, which posts entries now, later or in the past, and cancels some — and checks every pop
// against the smallest live entry of a plain list. `postShare` of the entries are queued by `post`
// (never cancelled, no id kept), the others by `schedule`.
const cases = [
  { name: 'mostly now (a reconciliation burst)', seed: 1, nowShare: 0.8, pastShare: 0, cancelShare: 0.05, postShare: 0 },
  { name: 'mostly later (timers)', seed: 2, nowShare: 0.1, pastShare: 0, cancelShare: 0.1, postShare: 0 },
  { name: 'past-due posts mixed in', seed: 3, nowShare: 0.5, pastShare: 0.1, cancelShare: 0.1, postShare: 0 },
  { name: 'many cancels', seed: 4, nowShare: 0.5, pastShare: 0.05, cancelShare: 0.5, postShare: 0 },
  { name: 'half posted, half scheduled, cancels of the scheduled', seed: 5, nowShare: 0.6, pastShare: 0.05, cancelShare: 0.3, postShare: 0.5 },
  { name: 'mostly posted (the cluster\'s news), a few timers', seed: 6, nowShare: 0.8, pastShare: 0.02, cancelShare: 0.2, postShare: 0.9 },
];

for (const c of cases) {
  t.test(`HeapLoop pops in (dueMs, seq) order: ${c.name}`, async (t) => {
    const rnd = xorshift(c.seed);
    const loop = new HeapLoop<Posted>();
    const all: Posted[] = [];
    let seq = 0;
    let idsWrong = 0;
    const post = (dueMs: number): void => {
      const p: Posted = { dueMs, seq: ++seq, cancelled: false, cancellable: rnd() >= c.postShare };
      if (p.cancellable) {
        if (loop.schedule(dueMs, p) !== p.seq) idsWrong++;
      } else loop.post(dueMs, p);
      all.push(p);
    };
    for (let i = 0; i < 20; i++) post(Math.floor(rnd() * 50));
    let nowMs = 0;
    let popped = 0;
    let wrong = 0;
    let sizeWrong = 0;
    let peekWrong = 0;
    while (popped < 5_000) {
      const live = all.filter((p) => !p.cancelled);
      const expected = live.reduce<Posted | undefined>((m, p) => (m === undefined || p.dueMs < m.dueMs || (p.dueMs === m.dueMs && p.seq < m.seq) ? p : m), undefined);
      if (loop.size !== live.length) sizeWrong++;
      if (loop.peekDueMs() !== expected?.dueMs) peekWrong++;
      const entry = loop.popDue(Number.POSITIVE_INFINITY);
      if (entry === undefined || expected === undefined) {
        t.equal(entry, expected);
        break;
      }
      if (entry.input !== expected) wrong++;
      expected.cancelled = true; // handled: no longer live
      popped++;
      nowMs = Math.max(nowMs, entry.dueMs);
      const posts = Math.floor(rnd() * 3) + (rnd() < 0.2 ? 1 : 0);
      for (let k = 0; k < posts; k++) {
        const r = rnd();
        if (r < c.pastShare) post(nowMs - 1 - Math.floor(rnd() * 5));
        else if (r < c.pastShare + c.nowShare) post(entry.dueMs);
        else post(nowMs + 1 + Math.floor(rnd() * 30));
      }
      if (rnd() < c.cancelShare) {
        const victim = all[Math.floor(rnd() * all.length)];
        loop.cancel(victim.seq); // a no-op for an entry already handled or cancelled, and for a posted one
        if (victim.cancellable) victim.cancelled = true;
      }
      if (all.length > 2_000) all.splice(0, all.length, ...all.filter((p) => !p.cancelled));
    }
    t.equal(wrong, 0, 'every pop was the smallest live (dueMs, seq)');
    t.equal(idsWrong, 0, 'a scheduled entry\'s id counts the posted ones before it');
    t.equal(sizeWrong, 0, 'size counts the live entries');
    t.equal(peekWrong, 0, 'peekDueMs is the due time of the next one');
    t.equal(popped, 5_000, 'the queue never ran dry');
  });
}

t.test('HeapLoop: an entry due now waits behind one posted earlier for the same instant', async (t) => {
  const loop = new HeapLoop<string>();
  loop.schedule(10, 'timer for 10');
  loop.schedule(5, 'first');
  t.equal(loop.popDue(100)?.input, 'first');
  loop.schedule(5, 'posted now (5)');
  loop.schedule(10, 'posted at 5 for 10');
  t.same([loop.popDue(100)?.input, loop.popDue(100)?.input], ['posted now (5)', 'timer for 10']);
  loop.schedule(10, 'posted now (10)');
  loop.schedule(3, 'past due');
  t.same([1, 2, 3].map(() => loop.popDue(100)?.input), ['past due', 'posted at 5 for 10', 'posted now (10)']);
  t.equal(loop.popDue(100), undefined);
});

t.test('HeapLoop: a burst of entries due now keeps posting order while it is consumed and refilled', async (t) => {
  const loop = new HeapLoop<number>();
  loop.schedule(1, -1);
  loop.schedule(2, -2);
  t.equal(loop.popDue(10)?.input, -1);
  let n = 0;
  for (; n < 6_000; n++) loop.schedule(1, n);
  const out: number[] = [];
  for (let k = 0; k < 5_000; k++) out.push(loop.popDue(10)?.input ?? NaN);
  for (; n < 9_000; n++) loop.schedule(1, n);
  for (let e = loop.popDue(10); e !== undefined; e = loop.popDue(10)) out.push(e.input);
  t.equal(out.length, 9_001);
  t.ok(out.slice(0, 9_000).every((v, i) => v === i), 'posting order');
  t.equal(out[9_000], -2, 'the later timer last');
});

t.test('popDue with maxSeq stops at the first entry in order scheduled after that id, and leaves it first', async (t) => {
  const cases: { name: string; entries: [number, string][]; maxSeqOf: number; popped: string[]; next: string | undefined }[] = [
    { name: 'no bound: everything due', entries: [[10, 'a'], [10, 'b'], [20, 'c']], maxSeqOf: Number.POSITIVE_INFINITY, popped: ['a', 'b', 'c'], next: undefined },
    { name: 'bound at the second entry', entries: [[10, 'a'], [10, 'b'], [10, 'c']], maxSeqOf: 2, popped: ['a', 'b'], next: 'c' },
    { name: 'a later-scheduled entry due earlier stops the pop before older ones', entries: [[20, 'old'], [10, 'new']], maxSeqOf: 1, popped: [], next: 'new' },
    { name: 'bound before every entry', entries: [[10, 'a']], maxSeqOf: 0, popped: [], next: 'a' },
  ];
  for (const c of cases) {
    const loop = new HeapLoop<string>();
    for (const [due, name] of c.entries) loop.schedule(due, name);
    const popped: string[] = [];
    for (let e = loop.popDue(100, c.maxSeqOf); e !== undefined; e = loop.popDue(100, c.maxSeqOf)) popped.push(e.input);
    t.same(popped, c.popped, `${c.name}: popped`);
    t.equal(loop.popDue(100)?.input, c.next, `${c.name}: what stays comes next without the bound`);
  }
});
