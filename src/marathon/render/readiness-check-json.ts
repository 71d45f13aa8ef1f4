import type { ReadinessCheckSpec } from '../../scheduler/model/readiness-check';
import { seconds } from './json-helpers';

/** An app's `readinessChecks[]` entry (Marathon's `ReadinessCheck`) with every default. */
export function readinessCheckJson(check: ReadinessCheckSpec): Record<string, unknown> {
  return {
    name: check.name,
    protocol: check.protocol,
    path: check.path,
    portName: check.portName,
    intervalSeconds: seconds(check.intervalMs),
    timeoutSeconds: seconds(check.timeoutMs),
    httpStatusCodesForReady: [...check.httpStatusCodesForReady],
    preserveLastResponse: check.preserveLastResponse,
  };
}
