import { isCanonical } from '../../groups/path-id';
import { CONSTRAINT_OPERATORS } from '../../model/constraint';
import { HEALTH_CHECK_PROTOCOLS } from '../../model/health-check';
import { MAX_INSTANCES } from '../../model/run-spec-limits';
import {
  type Check, all, arrayOf, bool, fields, isPlainObject, nonNegative, num, oneOf, optional, recordOf, str,
} from './checks';

const canonicalId: Check = (v, at) => (typeof v === 'string' && isCanonical(v) && v !== '/' ? undefined : `${at}: expected a canonical run spec id`);

const PORT = num(0, 65535, true);

/** `ScalarResources`: milli-units and whole GPUs, finite and ≥ 0. */
export const RESOURCES: Check = fields({ cpusMilli: nonNegative, memMilli: nonNegative, diskMilli: nonNegative, gpus: num(0, Number.MAX_VALUE, true) });

const HEALTH_CHECK: Check = fields({
  protocol: oneOf(HEALTH_CHECK_PROTOCOLS),
  gracePeriodMs: nonNegative, intervalMs: nonNegative, timeoutMs: nonNegative, maxConsecutiveFailures: nonNegative,
  delayMs: nonNegative, portIndex: optional(nonNegative), port: optional(PORT), endpoint: optional(str),
  path: str, ignoreHttp1xx: bool, command: optional(str), ipProtocol: oneOf(['IPv4', 'IPv6']), form: oneOf(['app', 'pod']),
});

const READINESS_CHECK: Check = fields({
  name: str, protocol: oneOf(['HTTP', 'HTTPS']), path: str, portName: str, portIndex: nonNegative,
  intervalMs: nonNegative, timeoutMs: nonNegative, httpStatusCodesForReady: arrayOf(nonNegative), preserveLastResponse: bool,
});

const UNREACHABLE: Check = (v, at) => {
  if (isPlainObject(v) && v.kind === 'disabled') return undefined;
  return fields({ kind: oneOf(['enabled']), inactiveAfterMs: nonNegative, expungeAfterMs: nonNegative })(v, at);
};

const COMMON: Check = fields({
  id: canonicalId,
  version: str,
  versionInfo: fields({ lastScalingAt: str, lastConfigChangeAt: str }),
  // The bound the core relies on: more instances than this cannot be held (issue 11).
  instances: num(0, MAX_INSTANCES, true),
  role: str,
  acceptedResourceRoles: arrayOf(str),
  constraints: arrayOf(fields({ field: str, operator: oneOf(CONSTRAINT_OPERATORS), value: optional(str) })),
  backoff: fields({ initialMs: nonNegative, factor: nonNegative, maxMs: nonNegative }),
  upgrade: fields({ minimumHealthCapacity: nonNegative, maximumOverCapacity: nonNegative }),
  unreachable: UNREACHABLE,
  killSelection: oneOf(['YOUNGEST_FIRST', 'OLDEST_FIRST']),
  labels: recordOf(str),
  resident: bool,
});

const APP: Check = fields({
  resources: RESOURCES,
  hostPorts: arrayOf(PORT),
  requirePorts: bool,
  healthChecks: arrayOf(HEALTH_CHECK),
  readinessChecks: optional(arrayOf(READINESS_CHECK)),
  killGracePeriodMs: optional(nonNegative),
  cmd: optional(str),
  args: optional(arrayOf(str)),
  env: recordOf(str),
  envSecrets: recordOf(str),
  dependencies: arrayOf(str),
  networks: arrayOf(fields({ mode: oneOf(['host', 'container', 'container/bridge']) })),
  portDefinitions: arrayOf(fields({ port: PORT, protocol: str })),
});

const POD: Check = fields({
  containers: arrayOf(fields({
    name: str,
    resources: RESOURCES,
    endpoints: arrayOf(fields({ name: str, hostPort: optional(PORT), containerPort: optional(PORT), protocol: arrayOf(str) })),
    healthCheck: optional(HEALTH_CHECK),
    env: recordOf(str),
    envSecrets: recordOf(str),
    killGracePeriodMs: optional(nonNegative),
  })),
  executorResources: RESOURCES,
  networkMode: oneOf(['host', 'container']),
  env: recordOf(str),
  envSecrets: recordOf(str),
});

/**
 * What is wrong with a run spec read back from the store (an app or a pod as the core keeps it),
 * or undefined when the core can run it: every field the core reads has its type, numbers are
 * finite, and `instances` is within `MAX_INSTANCES`. `kind` names the kind expected (`app` for a
 * group's `apps`), when known.
 */
export function runSpecProblem(value: unknown, at = '$', kind?: 'app' | 'pod'): string | undefined {
  if (!isPlainObject(value)) return `${at}: expected an object`;
  if (value.kind !== 'app' && value.kind !== 'pod') return `${at}.kind: expected app or pod`;
  if (kind !== undefined && value.kind !== kind) return `${at}.kind: expected ${kind}`;
  return all(COMMON, value.kind === 'app' ? APP : POD)(value, at);
}

/** A run spec check: {@link runSpecProblem}'s signature. */
export type RunSpecCheck = (value: unknown, at?: string, kind?: 'app' | 'pod') => string | undefined;

/**
 * {@link runSpecProblem} remembering the run spec objects it found sound, so that an object met
 * again is not judged again: a store hands the same object to every place that holds one version
 * (a root and each of its kept versions refer to their apps' stored versions since store format
 * 4), and judging it once per root version made recovery O(root versions × apps) — about 5 s of a
 * blocked event loop for 3,001 apps and 16 root versions on a loaded machine, long enough for a
 * `--zk` leader to lose its lease (the 2026-11-30 session note). The result is the same as
 * {@link runSpecProblem}'s for every input (the check reads only the object, which nothing
 * changes while recovery judges it); only problems are computed again, with their own path.
 */
export function rememberingRunSpecCheck(): RunSpecCheck {
  const sound = new WeakSet<object>();
  return (value, at = '$', kind) => {
    if (typeof value === 'object' && value !== null && sound.has(value)) {
      return kind === undefined || (value as { kind?: unknown }).kind === kind ? undefined : runSpecProblem(value, at, kind);
    }
    const problem = runSpecProblem(value, at, kind);
    if (problem === undefined && typeof value === 'object' && value !== null) sound.add(value);
    return problem;
  };
}
