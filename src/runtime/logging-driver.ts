import type { OfferOperation } from '../scheduler/model/launch';
import type { ClusterDriver } from '../scheduler/ports/cluster-driver';
import type { PacerLog } from './pacer-log';

/**
 * `driver` with a `debug` record of every call the core makes on the cluster (component
 * `cluster`): which offer was accepted with which operations (launches name their task ids),
 * which were declined, every kill, acknowledgement, reconciliation, revive, suppress and role
 * change — what an operator turns `--log_level debug` on to see (the matching's outcome, offer by
 * offer). At `info` and above the driver is returned as it is: nothing is wrapped, nothing costs.
 * Only ids, counts and roles are written: no environment, command or secret of a task.
 */
export function loggingDriver(driver: ClusterDriver, log: PacerLog): ClusterDriver {
  if (!log.isLevelEnabled('debug')) return driver;
  const out = log.child({ component: 'cluster' });
  const logged: ClusterDriver = {
    accept: (offerId, operations, refuseMs) => {
      const described = operations.map(describe);
      out.debug({ call: 'accept', offerId, operations: described, refuseMs }, `ACCEPT offer ${offerId}: ${described.join(', ') || 'no operations'}`);
      driver.accept(offerId, operations, refuseMs);
    },
    decline: (offerIds, refuseMs) => {
      out.debug({ call: 'decline', offerIds, refuseMs }, `DECLINE ${offerIds.length} offer(s) for ${refuseMs} ms`);
      driver.decline(offerIds, refuseMs);
    },
    kill: (taskId, agentId, gracePeriodMs) => {
      out.debug({ call: 'kill', taskId, agentId, gracePeriodMs }, `KILL ${taskId}${agentId === undefined ? '' : ` on ${agentId}`} (grace ${gracePeriodMs} ms)`);
      driver.kill(taskId, agentId, gracePeriodMs);
    },
    acknowledge: (agentId, taskId, uuid) => {
      out.debug({ call: 'acknowledge', agentId, taskId }, `ACKNOWLEDGE ${taskId}`);
      driver.acknowledge(agentId, taskId, uuid);
    },
    reconcile: (tasks) => {
      out.debug({ call: 'reconcile', tasks: tasks.length }, tasks.length === 0 ? 'RECONCILE implicitly' : `RECONCILE ${tasks.length} task(s)`);
      driver.reconcile(tasks);
    },
    revive: (roles) => {
      out.debug({ call: 'revive', roles }, `REVIVE ${roles.join(', ')}`);
      driver.revive(roles);
    },
    suppress: (roles) => {
      out.debug({ call: 'suppress', roles }, `SUPPRESS ${roles.join(', ')}`);
      driver.suppress(roles);
    },
  };
  const update = driver.updateFrameworkRoles?.bind(driver);
  if (update === undefined) return logged;
  return {
    ...logged,
    updateFrameworkRoles: (roles) => {
      out.debug({ call: 'updateFrameworkRoles', roles }, `UPDATE_FRAMEWORK roles ${roles.join(', ')}`);
      update(roles);
    },
  };
}

/** One operation in a few words: `LAUNCH <task id>`, `LAUNCH_GROUP <executor> (n tasks)`, `RESERVE <reservation id>`, … */
function describe(op: OfferOperation): string {
  if (op.kind === 'launch') return `LAUNCH ${op.task.taskId}`;
  if (op.kind === 'launchGroup') return `LAUNCH_GROUP ${op.executorId} (${op.tasks.length} task(s))`;
  return `${op.kind.toUpperCase()} ${op.reservationId}`;
}
