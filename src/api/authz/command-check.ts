import type { Command } from '../../scheduler/model/inputs';
import { runSpecDiff, type Scheduler } from '../../scheduler/index';
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
 * affects). A new root (groups API, bulk app updates, scaleBy, version revert) is compared with
 * the current one by the planner's own {@link runSpecDiff}: each run spec it removes, creates or
 * changes is checked, so a group change touching one run spec the caller may not change is
 * refused whole. Pure: reads the scheduler, changes nothing.
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
    case 'deploy': {
      const diff = runSpecDiff(scheduler.root(), command.root);
      return [
        ...diff.removed.map((spec): RunSpecCheck => ({ action: 'DeleteRunSpec', path: spec.id })),
        ...diff.changed.map(({ before, after }): RunSpecCheck => ({ action: before === undefined ? 'CreateRunSpec' : 'UpdateRunSpec', path: after.id })),
      ];
    }
  }
}
