import type { QueueEntry } from '../api/wire';

/**
 * The queue's verdict for a run spec whose launches are backed off (`delay.overdue` false): no offer
 * was declined, so the funnels say nothing; what holds it back is the delay, which grows after each
 * task that failed. Undefined when nothing is backed off.
 */
export function backoffVerdict(entry: Pick<QueueEntry, 'delay'>, kind: 'app' | 'pod'): string | undefined {
  if (entry.delay.overdue) return undefined;
  return `Launches are backed off for ${entry.delay.timeLeftSeconds} s more, after tasks that failed (the ${kind}'s page shows the last task failure); resetting the delay (queue page) retries at the next offer.`;
}
