import type { CallAnswer } from './post-call';

/**
 * What an answer to a non-SUBSCRIBE call means for the driver (mesos-v1-scheduler-api.md §1.6):
 * - `ok`: 200/202 (accepted for asynchronous processing; outcomes come as events);
 * - `resubscribe`: the call was not processed because the subscription is no longer valid here —
 *   307 (not the leader any more), 400 "Framework cannot be found" (master failover) or a stream
 *   id mismatch, 403 (not subscribed), 409, 404/5xx (master restarting, no leader), and 401: the
 *   master no longer takes the credentials the subscription was made with, which the SUBSCRIBE
 *   that follows finds out and stops pacer for with its message naming the flags (as at start).
 *   Taken as a rejection, a refused ACCEPT had its tasks reported dropped and launched again on
 *   the next offer, for ever (a Mesos-failure trial of 2026-12-03);
 * - `rejected`: any other 4xx — the call itself is wrong (a bug to log; it was not processed);
 * - `unknown`: no answer (network fault, timeout) — the master may or may not have processed it.
 */
export type CallVerdict =
  | { readonly kind: 'ok' }
  | { readonly kind: 'resubscribe' | 'rejected' | 'unknown'; readonly message: string };

const RESUBSCRIBE_400 = [/framework cannot be found/i, /stream id/i, /mesos-stream-id/i];

/** Classifies one call's answer; see {@link CallVerdict}. */
export function callAnswerVerdict(answer: CallAnswer): CallVerdict {
  if (answer.kind === 'failed') return { kind: 'unknown', message: answer.reason };
  const { status } = answer;
  if (status === 200 || status === 202) return { kind: 'ok' };
  const message = `${status} ${answer.body.trim()}`.trim();
  if (status === 307 || status === 401 || status === 403 || status === 404 || status === 409 || status >= 500) return { kind: 'resubscribe', message };
  if (status === 400 && RESUBSCRIBE_400.some((re) => re.test(answer.body))) return { kind: 'resubscribe', message };
  return { kind: 'rejected', message };
}
