import { type Group, runSpecDiff, type Scheduler } from '../../scheduler/index';
import type { Command } from '../../scheduler/model/inputs';
import type { AuthorizedAction } from './authorized-action';

/** One check a command needs: `action` on the run spec `path`. */
export interface RunSpecCheck {
  readonly action: AuthorizedAction;
  readonly path: string;
}

/**
 * Every run spec a command touches and what it does to it, as Marathon's resources check them
 * (`AppsResource`, `PodsResource`, `AppTasksResource`, `TasksResource`, `QueueResource`,
 * `DeploymentsResource`: create → CreateRunSpec, change/kill/scale/restart/reset delay →
 * UpdateRunSpec, delete → DeleteRunSpec, cancel a deployment → UpdateRunSpec on each run spec it
 * affects). A root change (groups API, bulk app updates, scaleBy, version revert) is previewed
 * by the core (`previewChange`: the root it would give) and compared with the current root by the
 * planner's own {@link runSpecDiff}: each run spec it removes, creates or changes is checked, so a
 * group change touching one run spec the caller may not change is refused whole; a change the core
 * refuses needs no check (it fails with the core's answer). `setEnforceRole` changes no run spec
 * and needs none. Pure: reads the scheduler, changes nothing.
 */
export function runSpecChecks(command: Command, scheduler: Scheduler): RunSpecCheck[] {
  switch (command.type) {
    case 'putRunSpec':
      return [{ action: scheduler.runSpec(command.spec.id) === undefined ? 'CreateRunSpec' : 'UpdateRunSpec', path: command.spec.id }];
    case 'deleteRunSpec':
      return [{ action: 'DeleteRunSpec', path: command.runSpecId }];
    case 'scale':
    case 'restart':
    case 'killInstances':
    case 'resetDelay':
      return [{ action: 'UpdateRunSpec', path: command.runSpecId }];
    case 'killAndScale':
      return command.targets.map((t) => ({ action: 'UpdateRunSpec', path: t.runSpecId }));
    case 'cancelDeployment': {
      const plan = scheduler.runningPlans().find((p) => p.id === command.deploymentId);
      return (plan?.affectedRunSpecIds ?? []).map((path) => ({ action: 'UpdateRunSpec', path }));
    }
    case 'deploy':
      return rootChecks(scheduler.root(), command.root);
    case 'changeRoot': {
      const preview = scheduler.previewChange(command.change);
      return preview.ok ? rootChecks(scheduler.root(), preview.root) : [];
    }
    case 'setEnforceRole':
      return [];
  }
}

/** The checks of replacing `current` by `target`: every run spec removed, created or changed. */
function rootChecks(current: Group, target: Group): RunSpecCheck[] {
  const diff = runSpecDiff(current, target);
  return [
    ...diff.removed.map((spec): RunSpecCheck => ({ action: 'DeleteRunSpec', path: spec.id })),
    ...diff.changed.map(({ before, after }): RunSpecCheck => ({ action: before === undefined ? 'CreateRunSpec' : 'UpdateRunSpec', path: after.id })),
  ];
}
