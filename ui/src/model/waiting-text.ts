import type { WaitingFor } from '../api/wire';
import { reasonText } from './reasons';

/** One thing a deployment action still waits for; `reasons` lists offer rejections (most first). */
export interface WaitingLine {
  readonly text: string;
  readonly reasons: readonly { readonly reason: string; readonly count: number; readonly text: string }[];
}

/**
 * pacer's `waitingFor` (`/v2/deployments?embed=waitingFor`) as sentences, most blocking first:
 * instances that found no offer (with the reasons offers were declined), instances not yet
 * healthy, not yet ready, and old instances still to replace. Empty when the action waits for
 * nothing (its step's other actions are still running).
 */
export function waitingLines(w: WaitingFor | undefined): WaitingLine[] {
  if (w === undefined) return [];
  const out: WaitingLine[] = [];
  const unplaced = w.unplaced ?? 0;
  if (unplaced > 0) {
    const reasons = Object.entries(w.rejections ?? {})
      .filter(([, count]) => count > 0)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([reason, count]) => ({ reason, count, text: reasonText(reason) }));
    const why = reasons.length === 0 ? ': no offer has been matched yet' : ': offers were declined';
    out.push({ text: `${plural(unplaced, 'instance')} not placed${why}`, reasons });
  }
  if ((w.notHealthy ?? 0) > 0) out.push({ text: `${plural(w.notHealthy ?? 0, 'instance')} of the new version not running and healthy yet`, reasons: [] });
  if ((w.notReady ?? 0) > 0) out.push({ text: `${plural(w.notReady ?? 0, 'instance')} healthy but not ready yet (readiness check)`, reasons: [] });
  if ((w.toReplace ?? 0) > 0) out.push({ text: `${plural(w.toReplace ?? 0, 'old instance')} still to replace or stop`, reasons: [] });
  return out;
}

/** `1 instance`, `3 instances`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
