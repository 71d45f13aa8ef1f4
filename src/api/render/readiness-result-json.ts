import type { ReadinessCheckResult } from '../../scheduler/model/readiness-check';

/**
 * One readiness result as Marathon writes it (`raml.TaskReadinessCheckResult`, ReadinessConversions
 * `readinessCheckResultWrites`): `{name, taskId, ready}` and `lastResponse` only when there is
 * one. `lastResponse?` is optional in readinessCheck.raml and Marathon's generated writer drops an
 * empty option (`filter(_._2 != JsNull)`), so a result without a kept response has no
 * `lastResponse` key, where the core keeps `null` (no `preserveLastResponse`, or no answer yet).
 */
export function readinessResultJson(result: ReadinessCheckResult): Record<string, unknown> {
  const { lastResponse, ...rest } = result;
  return lastResponse === null ? { ...rest } : { ...rest, lastResponse: { ...lastResponse } };
}
