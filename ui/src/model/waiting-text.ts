import type { Deployment, DeploymentAction, WaitingFor } from '../api/wire';
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

/**
 * Where a run spec's own action stands in a deployment that holds it, when the current step does
 * not act on it: its action is in a later step (a group's dependencies order the steps) or was in
 * an earlier one. Undefined while the current step acts on it (its `waitingFor` then says why).
 * Found in a browser trial: the page of an app whose dependency could not be placed said only
 * "deployment …, step 2 of 3", nothing of why nothing happened.
 */
export function laterStepText(d: Deployment, runSpecId: string): string | undefined {
  const concerns = (a: DeploymentAction): boolean => a.app === runSpecId || a.pod === runSpecId;
  if (d.currentActions.some(concerns)) return undefined;
  const current = d.currentActions.map((a) => `${a.action} ${a.app ?? a.pod ?? ''}`.trim()).join(', ');
  const steps = d.steps.map((s, i) => ({ n: i + 1, mine: s.actions.filter(concerns) })).filter((s) => s.mine.length > 0);
  const later = steps.find((s) => s.n > d.currentStep);
  if (later !== undefined) {
    const what = later.mine.map((a) => a.action).join(', ');
    return `Its ${what} is step ${later.n} of ${d.totalSteps}: it waits for step ${d.currentStep} (${current}) to finish.`;
  }
  return `Its part of the deployment is done; step ${d.currentStep} of ${d.totalSteps} (${current}) is still running.`;
}
