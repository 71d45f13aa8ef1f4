import { CONDITIONS } from '../../model/condition';
import { TASK_STATES } from '../../model/task-state';
import { RESOURCES } from './run-spec-check';
import { type Check, anything, arrayOf, bool, fields, nonNegative, num, oneOf, optional, str } from './checks';

const TASK: Check = fields({
  taskId: str,
  containerName: optional(str),
  state: optional(oneOf(TASK_STATES)),
  condition: oneOf(CONDITIONS),
  hostPorts: arrayOf(num(0, 65535, true)),
  resources: RESOURCES,
  healthy: optional(bool),
  launchedAtMs: nonNegative,
  startedAtMs: optional(nonNegative),
  lastStatusMs: optional(nonNegative),
  message: optional(str),
  ipAddresses: optional(arrayOf(fields({ ipAddress: str, protocol: oneOf(['IPv4', 'IPv6']) }))),
});

const INSTANCE: Check = fields({
  instanceId: str,
  runSpecId: str,
  kind: oneOf(['app', 'pod']),
  runSpecVersion: str,
  configVersion: str,
  incarnation: nonNegative,
  goal: oneOf(['Running', 'Stopped', 'Decommissioned']),
  condition: oneOf(CONDITIONS),
  conditionSinceMs: nonNegative,
  role: str,
  agent: optional(fields({ agentId: str, hostname: str, region: optional(str), zone: optional(str), attributes: arrayOf(anything) })),
  allocation: optional(arrayOf(anything)),
  reservation: optional(fields({ agentId: str, role: str, volumes: arrayOf(fields({ persistenceId: str, containerPath: str, diskMilli: nonNegative })) })),
  tasks: arrayOf(TASK),
  healthy: optional(bool),
  ready: optional(bool),
  proven: optional(bool),
  startedAtMs: optional(nonNegative),
  unreachableSinceMs: optional(nonNegative),
  killRequestedAtMs: optional(nonNegative),
});

/** What is wrong with an instance read back from the store, or undefined when the core can adopt it. */
export function instanceProblem(value: unknown, at = '$'): string | undefined {
  return INSTANCE(value, at);
}
