import { rootProblem, type RootCheck } from './group-check';
import { runSpecProblem, type RunSpecCheck } from './run-spec-check';
import { arrayOf, fields, isPlainObject, nonNegative, num, oneOf, str } from './checks';

const ACTION = fields({
  action: oneOf(['StartApplication', 'StopApplication', 'ScaleApplication', 'RestartApplication', 'StartPod', 'StopPod', 'ScalePod', 'RestartPod']),
  runSpecId: str,
  kind: oneOf(['app', 'pod']),
});

const PLAN = fields({
  id: str,
  originalVersion: str,
  targetVersion: str,
  steps: arrayOf(fields({ actions: arrayOf(ACTION) })),
  affectedRunSpecIds: arrayOf(str),
});

/**
 * What is wrong with a running deployment read back from the store, or undefined when it can
 * resume: its plan, a step index within the plan, and sound original and target roots (their apps
 * and pods judged by `check`, as {@link rootProblem}'s; the roots by `roots`, which recovery makes
 * remember the root objects it found sound: `rememberingRootCheck`).
 */
export function deploymentProblem(
  value: unknown, at = '$', check: RunSpecCheck = runSpecProblem, roots: RootCheck = (root, where) => rootProblem(root, where, check),
): string | undefined {
  if (!isPlainObject(value)) return `${at}: expected an object`;
  const plan = PLAN(value.plan, `${at}.plan`);
  if (plan !== undefined) return plan;
  const steps = (value.plan as { steps: unknown[] }).steps.length;
  return num(0, steps, true)(value.stepIndex, `${at}.stepIndex`)
    ?? nonNegative(value.startedAtMs, `${at}.startedAtMs`)
    ?? roots(value.original, `${at}.original`)
    ?? roots(value.target, `${at}.target`);
}
