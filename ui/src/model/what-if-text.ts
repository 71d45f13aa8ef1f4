import { reasonText } from './reasons';
import { plural } from './waiting-text';

/** The answer of `?dryRun=true&simulate=…` (docs/what-if.md), as the UI reads it. */
export interface WhatIfAnswer {
  readonly simulate: string;
  readonly deployment: 'finished' | 'failed' | 'running' | 'none';
  readonly finishedAfterMs?: number;
  readonly failure?: string;
  readonly launched: readonly { readonly instanceId: string; readonly runSpecId: string; readonly agentId: string; readonly hostname: string; readonly afterMs: number }[];
  readonly killed: readonly { readonly instanceId: string; readonly runSpecId: string; readonly agentId?: string; readonly reason?: string; readonly afterMs: number }[];
  readonly waiting: readonly { readonly runSpecId: string; readonly instances: number; readonly reasons: Readonly<Record<string, number>> }[];
  readonly stoppedBy?: 'wall-time' | 'steps';
}

/** `2.6 s`, `3 min 5 s`, `1 h 2 min`: a virtual duration as the what-if panel words it. */
export function durationText(ms: number): string {
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return h > 0 ? `${h} h ${m} min` : rest === 0 ? `${m} min` : `${m} min ${rest} s`;
}

/** `PT30M` → `30 min`: the simulated span. */
export function simulateText(iso: string): string {
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$/.exec(iso);
  if (m === null) return iso;
  return durationText(Number(m[1] ?? 0) * 3_600_000 + Number(m[2] ?? 0) * 60_000 + Number(m[3] ?? 0) * 1000);
}

/** The answer's headline: would the change finish, and in how long. */
export function whatIfHeadline(a: WhatIfAnswer): string {
  const cut = a.stoppedBy === undefined ? '' : ` (the simulation stopped early: ${a.stoppedBy === 'wall-time' ? 'its time budget ran out' : 'its step budget ran out'})`;
  switch (a.deployment) {
    case 'finished': return `Would finish after ${durationText(a.finishedAfterMs ?? 0)}${cut}`;
    case 'failed': return `Would fail after ${durationText(a.finishedAfterMs ?? 0)}${a.failure === undefined ? '' : `: ${a.failure}`}${cut}`;
    case 'running': return `Would not finish within ${simulateText(a.simulate)}${cut}`;
    case 'none': return 'Would change nothing: no deployment';
  }
}

/** One line per run spec left waiting: `/web: 2 instances wait — not enough CPUs (60 offers)`. */
export function waitingText(a: WhatIfAnswer): string[] {
  return a.waiting.map((w) => {
    const reasons = Object.entries(w.reasons).sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
    const why = reasons.length === 0 ? 'no offer matched yet' : reasons.map(([r, n]) => `${reasonText(r)} (${plural(n, 'offer')})`).join('; ');
    return `${w.runSpecId}: ${plural(w.instances, 'instance')} ${w.instances === 1 ? 'waits' : 'wait'} — ${why}`;
  });
}

/** `web.instance-705d41b3-b83a-…` → `web.instance-705d41b3`: instance ids short enough for a table. */
export function shortInstance(instanceId: string): string {
  const m = /^(.*\.(?:instance|marathon)-[0-9a-f]{8})[0-9a-f-]*$/.exec(instanceId);
  return m === null ? instanceId : m[1];
}
