/**
 * Where a stretch of blocked event loop went (bench:scale-lag, issue 11 item 4): a ticker notes
 * every gap between its turns longer than a threshold, with the process's CPU time over the gap;
 * the bench adds the GC pauses and the core's inputs (and the simulated cluster's steps) that fell
 * in it. {@link attributeStretch} then names the main cause. On a shared machine a stretch in which
 * the process got little CPU is not our code's fault: comparing CPU time to wall time tells it
 * apart from GC and from one expensive input.
 */

/** A span of work inside a stretch: a GC pause, a core input, a simulated-cluster step. */
export interface Span {
  /** performance.now() ms at the start. */
  readonly startMs: number;
  readonly ms: number;
  /** What it was: `gc:minor`, `gc:major`, `input:offers(5)`, `input:timer:continueChanges`, `cluster`, `command:scale`. */
  readonly label: string;
}

/** One gap between the ticker's turns: what the bench knows about it. */
export interface StretchFacts {
  readonly startMs: number;
  readonly wallMs: number;
  /** CPU time of the whole process (all threads, user + system) in the stretch. */
  readonly cpuMs: number;
  /** Spans that overlap the stretch (only their overlap is counted). */
  readonly spans: readonly Span[];
}

/** The verdict on one stretch. */
export type StretchCause = 'no CPU' | 'GC' | 'input' | 'cluster' | 'other';

export interface AttributedStretch {
  readonly startMs: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  /** Overlap of GC pauses with the stretch. */
  readonly gcMs: number;
  /** Overlap of core inputs (commands included) with the stretch, GC pauses inside them included. */
  readonly inputMs: number;
  /** Overlap of the simulated cluster's steps. */
  readonly clusterMs: number;
  /** The longest input overlapping the stretch (label and its whole duration), if any. */
  readonly longestInput: string;
  readonly longestInputMs: number;
  readonly cause: StretchCause;
}

/**
 * Share of the stretch's wall time the process must have had on a CPU for the stretch to be
 * blamed on its own work: below it, the process mostly waited for a core (a shared machine).
 * GC helper threads count in the process's CPU time, so a parallel GC pause can push the ratio up,
 * never down: a "no CPU" verdict is conservative.
 */
export const MIN_CPU_SHARE = 0.5;

function overlap(s: Span, from: number, to: number): number {
  return Math.max(0, Math.min(to, s.startMs + s.ms) - Math.max(from, s.startMs));
}

/**
 * A stretch's wall time as printed, rounded up to 0.1 ms, not to nearest: a stretch is listed for
 * being over the threshold, and 50.04 ms must not print as 50. The ticker's longest gap is printed
 * the same way, so a stretch is listed exactly when that gap is over the threshold.
 */
export function stretchMs(ms: number): number {
  return Math.ceil(ms * 10) / 10;
}

/**
 * Attributes a stretch: `no CPU` when the process got less than {@link MIN_CPU_SHARE} of the wall
 * time on a CPU; otherwise the largest of GC (the pauses' overlap), the core's inputs outside GC,
 * the simulated cluster outside GC, and the rest (`other`: HTTP, pings, the pacer's own bookkeeping).
 */
export function attributeStretch(f: StretchFacts): AttributedStretch {
  const from = f.startMs;
  const to = f.startMs + f.wallMs;
  let gcMs = 0;
  let inputMs = 0;
  let clusterMs = 0;
  let longestInput = '';
  let longestInputMs = 0;
  for (const s of f.spans) {
    const o = overlap(s, from, to);
    if (o === 0) continue;
    if (s.label.startsWith('gc:')) gcMs += o;
    else if (s.label === 'cluster') clusterMs += o;
    else {
      inputMs += o;
      if (s.ms > longestInputMs) {
        longestInputMs = s.ms;
        longestInput = s.label;
      }
    }
  }
  // GC pauses happen inside inputs and cluster steps (they allocate): share them out in proportion.
  const busy = inputMs + clusterMs;
  const gcInBusy = Math.min(gcMs, busy);
  const inputOwn = busy === 0 ? 0 : inputMs - (gcInBusy * inputMs) / busy;
  const clusterOwn = busy === 0 ? 0 : clusterMs - (gcInBusy * clusterMs) / busy;
  const otherMs = Math.max(0, f.wallMs - gcMs - inputOwn - clusterOwn);
  let cause: StretchCause;
  if (f.cpuMs < MIN_CPU_SHARE * f.wallMs) cause = 'no CPU';
  else {
    const parts: [StretchCause, number][] = [['GC', gcMs], ['input', inputOwn], ['cluster', clusterOwn], ['other', otherMs]];
    cause = parts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  }
  const r = (x: number): number => Math.round(x * 10) / 10;
  return {
    startMs: r(f.startMs), wallMs: stretchMs(f.wallMs), cpuMs: r(f.cpuMs), gcMs: r(gcMs), inputMs: r(inputMs), clusterMs: r(clusterMs),
    longestInput, longestInputMs: r(longestInputMs), cause,
  };
}

/** Counts stretches per cause and sums their wall time: the phase's one-line summary. */
export function summarizeStretches(stretches: readonly AttributedStretch[]): string {
  if (stretches.length === 0) return 'none';
  const by = new Map<StretchCause, { n: number; ms: number; max: number }>();
  for (const s of stretches) {
    const e = by.get(s.cause) ?? { n: 0, ms: 0, max: 0 };
    e.n++;
    e.ms += s.wallMs;
    e.max = Math.max(e.max, s.wallMs);
    by.set(s.cause, e);
  }
  return [...by].sort((a, b) => b[1].ms - a[1].ms).map(([c, e]) => `${c} ×${e.n} (${Math.round(e.ms)} ms, longest ${Math.round(e.max)})`).join(', ');
}
