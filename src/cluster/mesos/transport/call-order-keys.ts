import type { Call } from '../codec/mesos-model';

/** The key of the calls that change the framework's roles or their offer state (REVIVE, SUPPRESS, UPDATE_FRAMEWORK). */
const ROLES_KEY = 'roles';

/**
 * What a call must stay in order with: calls sharing a key are sent one after another, each once
 * the one before was answered (the master has handled it: mesos-v1-scheduler-api.md §1.10 — two
 * requests on different connections have no order); calls without a shared key may be in flight
 * at once. The keys:
 * - `roles` for UPDATE_FRAMEWORK, REVIVE and SUPPRESS: a REVIVE of a role must follow the
 *   UPDATE_FRAMEWORK that added it, and a SUPPRESS then REVIVE of a role must not swap;
 * - `offer:<id>` for each offer an ACCEPT or DECLINE names: one answer per offer, in order;
 * - `task:<id>` for each task an ACCEPT launches, a KILL kills or an ACKNOWLEDGE acknowledges: a
 *   KILL never overtakes the launch of its task, nor an ACKNOWLEDGE the KILL before it.
 * RECONCILE has none: it only asks, and the core reconciles again when answers are missing. An
 * ACKNOWLEDGE always follows the UPDATE it acknowledges (it is made from it).
 */
export function callOrderKeys(call: Call): string[] {
  switch (call.type) {
    case 'UPDATE_FRAMEWORK':
    case 'REVIVE':
    case 'SUPPRESS':
      return [ROLES_KEY];
    case 'KILL':
      return call.kill === undefined ? [] : [`task:${call.kill.taskId.value}`];
    case 'ACKNOWLEDGE':
      return call.acknowledge === undefined ? [] : [`task:${call.acknowledge.taskId.value}`];
    case 'DECLINE':
      return (call.decline?.offerIds ?? []).map((id) => `offer:${id.value}`);
    case 'ACCEPT': {
      const keys = (call.accept?.offerIds ?? []).map((id) => `offer:${id.value}`);
      for (const op of call.accept?.operations ?? []) {
        for (const task of op.launch?.taskInfos ?? []) keys.push(`task:${task.taskId.value}`);
        for (const task of op.launchGroup?.taskGroup.tasks ?? []) keys.push(`task:${task.taskId.value}`);
      }
      return keys;
    }
    default:
      return [];
  }
}
