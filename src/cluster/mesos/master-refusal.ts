/**
 * What an ERROR event (or a refused UPDATE_FRAMEWORK) from the master means for the driver:
 * - `final`: resubscribing cannot succeed, so the driver stops and says why (`explanation`, for
 *   the operator) instead of reconnecting in a loop;
 * - `transient`: the master could not decide now (its authorizer failed, it lost the connection);
 *   resubscribe with backoff;
 * - `unknown`: a message this table does not know; resubscribe with backoff, but only a bounded
 *   number of times in a row (mesos-cluster.ts), then stop.
 */
export type MasterRefusal =
  | { readonly kind: 'final'; readonly cause: FinalCause; readonly explanation: string }
  | { readonly kind: 'transient' | 'unknown'; readonly explanation: string };

/** Why a refusal is final. */
export type FinalCause = 'framework-removed' | 'failed-over' | 'roles-refused' | 'unauthorized' | 'refused';

interface Rule {
  readonly pattern: RegExp;
  readonly refusal: (message: string) => MasterRefusal;
}

/**
 * The master's own messages (apache/mesos src/master/master.cpp: `validateFramework`,
 * `checkSubscribeAuthorization`, `_subscribe`, `failoverFramework`, `updateFramework`;
 * mesos-v1-scheduler-api.md §1.3 item 4, §1.8, §3.9), first match wins.
 */
const RULES: readonly Rule[] = [
  final(/Framework has been removed/i, 'framework-removed', (m) =>
    `${m}: the master no longer knows this framework id (its failover_timeout expired, or it was torn down), so its tasks are gone ` +
    'and pacer cannot resubscribe with it. pacer stops; start it again with a store that has no framework id (a new framework).'),
  final(/Framework failed over/i, 'failed-over', (m) =>
    `${m}: another scheduler subscribed with this framework id and the master now talks to it; pacer stops instead of fighting it.`),
  final(/are not present in the master's --roles/i, 'roles-refused', (m) =>
    `${m}: the master only allows the roles of its --roles flag. Add the role(s) to the master's --roles, or change the apps and pods ` +
    'that use them (their role, or --mesos_role), then start pacer again.'),
  final(/^Not authorized to/i, 'unauthorized', (m) =>
    `${m}: the master's authorizer refuses this framework (its principal, or a role it asks for). Grant it in the master's ACLs, ` +
    'or change the roles in use, then start pacer again.'),
  final(/not allowed to run frameworks|does not match authenticated principal|is not authenticated|principal/i, 'refused', (m) =>
    `${m}: the master refuses this framework's identity; fix the configuration and start pacer again.`),
  { pattern: /^Authorization failure|Framework disconnected/i, refusal: (m) => ({ kind: 'transient', explanation: m }) },
];

function final(pattern: RegExp, cause: FinalCause, explain: (message: string) => string): Rule {
  return { pattern, refusal: (m) => ({ kind: 'final', cause, explanation: explain(m) }) };
}

/** Classifies a message of the master's ERROR event or of a refused call; see {@link MasterRefusal}. */
export function masterRefusal(message: string): MasterRefusal {
  const text = message.trim() === '' ? '(no message)' : message.trim();
  for (const rule of RULES) if (rule.pattern.test(text)) return rule.refusal(text);
  return { kind: 'unknown', explanation: text };
}

/**
 * The roles a refusal names: the master writes a role set as `{ a, b }` after `roles` or `Roles`
 * (`Roles { dev } are not present in the master's --roles`, `… principal 'p' and roles { dev }`).
 */
export function rolesNamed(message: string): string[] {
  const m = /roles\s*\{([^}]*)\}/i.exec(message);
  if (m === null) return [];
  return m[1].split(',').map((r) => r.trim()).filter((r) => r !== '');
}
